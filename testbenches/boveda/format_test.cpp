// The bit format of docs/boveda.md against streams computed by hand (not by the codec):
// each expected stream is spelled out field by field in stream order, bit 0 first.
#include "boveda/codec.h"
#include "boveda_check.h"
#include "boveda_spec/width.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace by::boveda;
using by::boveda::test::referenceWidth;
using by::boveda::test::wordsFromBits;

namespace {

BovedaParams tinyParams(int elementBits, int groupSize, int headerBits, int blockValues) {
  BovedaParams p;
  p.elementBits = elementBits;
  p.groupSize = groupSize;
  p.headerBits = headerBits;
  p.containerBits = 64;
  p.blockValues = blockValues;
  return p;
}

} // namespace

TEST(BovedaWidth, MatchesBruteForceForEverySixteenBitValue) {
  for (int32_t v = -32768; v <= 32767; ++v)
    ASSERT_EQ(valueWidth(v), referenceWidth(v)) << "v=" << v;
  EXPECT_EQ(valueWidth(-128), 8);
  EXPECT_EQ(valueWidth(128), 9);
  EXPECT_EQ(valueWidth(-129), 9);
  EXPECT_EQ(valueWidth(-1), 1);
  EXPECT_EQ(valueWidth(1), 2);
  const int16_t g[] = {0, -1, 0, 0};
  EXPECT_EQ(groupWidth(g, 4), 1);
  const int16_t z[] = {0, 0, 0};
  EXPECT_EQ(groupWidth(z, 3), 0);
  const int16_t m[] = {3, -4, 2, -32768};
  EXPECT_EQ(groupWidth(m, 3), 3);
  EXPECT_EQ(groupWidth(m, 4), 16);
}

// Plain format: 8-bit, groups of 4, 4-bit header, 64-bit containers, blocks of 8 values.
TEST(BovedaFormat, HandComputedPlainStream) {
  const BovedaParams p = tinyParams(8, 4, 4, 8);
  const std::vector<int8_t> v = {1, -1, 0, 2, 0, 0, 0, 0, -128, 127, 5, -6};
  const CompressedTensor t = compress(p, v);

  // Block 0 (container 0). Group {1,-1,0,2}: widths 2,1,0,3 -> 3.
  //   header 3 = 0011 -> LSB first "1100"; 1 = 001 -> "100"; -1 = 111 -> "111";
  //   0 -> "000"; 2 = 010 -> "010". Group {0,0,0,0}: header 0 -> "0000", no payload.
  //   20 bits, then 44 padding bits.
  // Block 1 (container 1). Group {-128,127,5,-6}: width 8 -> "0001";
  //   -128 = 0x80 -> "00000001"; 127 = 0x7f -> "11111110"; 5 = 0x05 -> "10100000";
  //   -6 = 0xfa -> "01011111". 36 bits, then 28 padding bits.
  std::vector<uint32_t> expected = wordsFromBits("1100 100 111 000 010 0000", 64);
  const std::vector<uint32_t> block1 =
      wordsFromBits("0001 00000001 11111110 10100000 01011111", 64);
  expected.insert(expected.end(), block1.begin(), block1.end());
  EXPECT_EQ(t.words, expected);
  // The same words as numbers, to check wordsFromBits itself: bits 0,1,4,7,8,9,14 of block 0;
  // block 1 is 0x8 | 0x80 << 4 | 0x7f << 12 | 0x05 << 20 | 0xfa << 28.
  EXPECT_EQ(t.words, (std::vector<uint32_t>{0x4393u, 0u, 0xa057f808u, 0xfu}));
  EXPECT_EQ(t.blockPointers, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(t.bytes()[0], 0x93);
  EXPECT_EQ(t.bytes()[1], 0x43);
  EXPECT_EQ(t.bytes()[8], 0x08);

  EXPECT_EQ(t.stats.headerBits, 12u);
  EXPECT_EQ(t.stats.payloadBits, 44u);
  EXPECT_EQ(t.stats.bitmapBits, 0u);
  EXPECT_EQ(t.stats.paddingBits, 72u);
  EXPECT_EQ(t.stats.pointerBits, 64u);
  EXPECT_EQ(t.stats.rawBits, 96u);
  EXPECT_EQ(t.stats.compressedBits(), 192u);
  EXPECT_EQ(t.stats.groupsByWidth[0], 1u);
  EXPECT_EQ(t.stats.groupsByWidth[3], 1u);
  EXPECT_EQ(t.stats.groupsByWidth[8], 1u);

  const std::vector<int16_t> back = decompress(t);
  EXPECT_EQ(back, (std::vector<int16_t>{1, -1, 0, 2, 0, 0, 0, 0, -128, 127, 5, -6}));
  EXPECT_EQ(decompressBlock(t, 1), (std::vector<int16_t>{-128, 127, 5, -6}));
}

// Zero-aware with the same-width shortcut: one block of four groups of 4.
TEST(BovedaFormat, HandComputedZeroAwareShortcutStream) {
  BovedaParams p = tinyParams(8, 4, 4, 16);
  p.zeroAware = true;
  p.sameWidthShortcut = true;
  const std::vector<int8_t> v = {0, 3, 0, -2, 0, 0, 0, 0, 0, 0, 0, 0, -4, 0, 0, 3};
  const CompressedTensor t = compress(p, v);

  // Group {0,3,0,-2}: width 3, previous width (block start) 0 -> flag "0", header "1100";
  //   bitmap (value 0 first) "0101"; 3 = 011 -> "110"; -2 = 110 -> "011".
  // Group {0,0,0,0}: width 0 != 3 -> "0" "0000"; no bitmap, no payload.
  // Group {0,0,0,0}: width 0 == previous -> "1".
  // Group {-4,0,0,3}: width 3 != 0 -> "0" "1100"; bitmap "1001"; -4 = 100 -> "001";
  //   3 = 011 -> "110".  Total 15 + 5 + 1 + 15 = 36 bits.
  const std::vector<uint32_t> expected =
      wordsFromBits("0 1100 0101 110 011  0 0000  1  0 1100 1001 001 110", 64);
  EXPECT_EQ(t.words, expected);
  EXPECT_EQ(t.words, (std::vector<uint32_t>{0x24d06746u, 0x7u}));
  EXPECT_EQ(t.blockPointers, (std::vector<uint32_t>{0}));
  EXPECT_EQ(t.stats.headerBits, 16u);
  EXPECT_EQ(t.stats.bitmapBits, 8u);
  EXPECT_EQ(t.stats.payloadBits, 12u);
  EXPECT_EQ(t.stats.paddingBits, 28u);
  EXPECT_EQ(t.stats.groupsByWidth[0], 2u);
  EXPECT_EQ(t.stats.groupsByWidth[3], 2u);

  const std::vector<int16_t> back = decompress(t);
  EXPECT_EQ(back, std::vector<int16_t>(v.begin(), v.end()));
}

// 16-bit elements, groups of 2, blocks of 3: a partial group at the end of each block and a
// short last block.
TEST(BovedaFormat, HandComputedSixteenBitPartialGroups) {
  const BovedaParams p = tinyParams(16, 2, 5, 3);
  const std::vector<int16_t> v = {-32768, 1, 0, -1, 0};
  const CompressedTensor t = compress(p, v);

  // Block 0: group {-32768, 1}: width 16 = 10000 -> "00001"; 0x8000 -> 15 zeros then "1";
  //   1 -> "1" then 15 zeros. Group {0} (one value): "00000". 42 bits.
  // Block 1: group {-1, 0}: width 1 -> "10000"; -1 -> "1"; 0 -> "0". 7 bits.
  std::vector<uint32_t> expected =
      wordsFromBits("00001 0000000000000001 1000000000000000 00000", 64);
  const std::vector<uint32_t> block1 = wordsFromBits("10000 1 0", 64);
  expected.insert(expected.end(), block1.begin(), block1.end());
  EXPECT_EQ(t.words, expected);
  EXPECT_EQ(t.words, (std::vector<uint32_t>{0x00300010u, 0u, 0x21u, 0u}));
  EXPECT_EQ(t.blockPointers, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(t.stats.headerBits, 15u);
  EXPECT_EQ(t.stats.payloadBits, 34u);
  EXPECT_EQ(t.stats.paddingBits, 79u);
  EXPECT_EQ(t.stats.groups, 3u);

  EXPECT_EQ(decompress(t), v);
  EXPECT_EQ(decompressBlock(t, 0), (std::vector<int16_t>{-32768, 1, 0}));
  EXPECT_EQ(decompressBlock(t, 1), (std::vector<int16_t>{-1, 0}));
}

// A 64-value zero-aware group: the bitmap spans two 32-bit pieces and the group is larger
// than one container.
TEST(BovedaFormat, HandComputedWideBitmapAcrossContainers) {
  BovedaParams p = tinyParams(8, 64, 4, 64);
  p.zeroAware = true;
  std::vector<int8_t> v(64, 0);
  v[0] = 1;
  v[40] = -1;
  const CompressedTensor t = compress(p, v);
  // Width 2 -> "0100" (bits 0..3); bitmap bits 4..67 with value 0 at bit 4 and value 40 at
  // bit 44; 1 = 01 -> "10" (bits 68, 69); -1 = 11 -> "11" (bits 70, 71). 72 bits, 2 containers.
  EXPECT_EQ(t.words, (std::vector<uint32_t>{0x12u, 0x1000u, 0xd0u, 0u}));
  EXPECT_EQ(t.stats.containers, 2u);
  EXPECT_EQ(decompress(t), std::vector<int16_t>(v.begin(), v.end()));
}

// The decoder accepts only canonical streams: each corruption below is one that a buggy
// RTL compressor could produce, and each must be reported.
TEST(BovedaFormat, DecoderRejectsMalformedStreams) {
  const BovedaParams p = tinyParams(8, 4, 4, 8);
  const std::vector<int8_t> v = {1, -1, 0, 2, 0, 0, 0, 0, -128, 127, 5, -6};
  const CompressedTensor good = compress(p, v);

  CompressedTensor t = good;
  t.words[2] |= 0x7; // block 1 header 8 -> 15: wider than the element
  EXPECT_THROW(decompress(t), std::runtime_error);
  EXPECT_THROW(decompressBlock(t, 1), std::runtime_error);
  EXPECT_NO_THROW(decompressBlock(t, 0)); // other blocks stay readable

  // Block 0, group 0 stored at width 3 but re-encoded by hand at width 4 (not the smallest).
  t = good;
  const std::vector<uint32_t> wide = wordsFromBits("0010 1000 1111 0000 0100 0000", 64);
  t.words[0] = wide[0];
  t.words[1] = wide[1];
  EXPECT_THROW(decompressBlock(t, 0), std::runtime_error);

  t = good;
  t.words[1] |= 0x80000000u; // last bit of container 0: padding must be zero
  EXPECT_THROW(decompressBlock(t, 0), std::runtime_error);

  t = good;
  t.words.resize(2); // the stream lost block 1's container
  EXPECT_THROW(decompress(t), std::runtime_error);

  t = good;
  t.blockPointers = {0, 2}; // points past the stream
  EXPECT_THROW(decompressBlock(t, 1), std::runtime_error);
  t.blockPointers = {0}; // pointer table of the wrong length
  EXPECT_THROW(decompress(t), std::runtime_error);

  t = good;
  t.words.insert(t.words.end(), {0u, 0u}); // a trailing, unreferenced container
  EXPECT_THROW(decompress(t), std::runtime_error);

  EXPECT_THROW(decompressBlock(good, 2), std::out_of_range);
}

TEST(BovedaFormat, DecoderReportsAStreamThatEndsInsideAGroup) {
  // One block of 16 values whose header says width 8: 4 + 128 bits, but only 64 exist.
  CompressedTensor t;
  t.params = tinyParams(8, 16, 4, 16);
  t.numValues = 16;
  t.blockPointers = {0};
  t.words = wordsFromBits("0001", 64);
  try {
    decompress(t);
    ADD_FAILURE() << "a truncated stream was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("block 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stream ends"), std::string::npos) << e.what();
  }
}

TEST(BovedaFormat, DecoderRejectsNonCanonicalZeroAwareAndShortcut) {
  BovedaParams p = tinyParams(8, 4, 4, 16);
  p.zeroAware = true;
  p.sameWidthShortcut = true;
  CompressedTensor t;
  t.params = p;
  t.numValues = 4;
  t.blockPointers = {0};

  // A bitmap bit set for a value whose payload is 0.
  t.words = wordsFromBits("0 1100 1100 100 000", 64);
  EXPECT_THROW(decompress(t), std::runtime_error);
  // Width 3 with an empty bitmap.
  t.words = wordsFromBits("0 1100 0000", 64);
  EXPECT_THROW(decompress(t), std::runtime_error);
  // An explicit width 0 where the flag (previous width 0) must be used.
  t.words = wordsFromBits("0 0000", 64);
  EXPECT_THROW(decompress(t), std::runtime_error);
  // The canonical form of the same group decodes.
  t.words = wordsFromBits("1", 64);
  EXPECT_EQ(decompress(t), std::vector<int16_t>(4, 0));
}

// Regression: padding a short block to a large container moved the write position past the
// writer's buffer, and the next block was written out of bounds.
TEST(BovedaFormat, ShortBlocksInLargeContainers) {
  BovedaParams p = tinyParams(8, 16, 4, 16);
  p.containerBits = 4096;
  std::vector<int8_t> v(32, 0);
  v[0] = 1;   // block 0: width 2 -> "0100"; 1 -> "10" (bit 4); 15 x "00"
  v[16] = -1; // block 1: width 1 -> "1000"; -1 -> "1" (bit 4); 15 x "0"
  const CompressedTensor t = compress(p, v);
  std::vector<uint32_t> expected(2 * 4096 / 32, 0);
  expected[0] = 0x12u;
  expected[128] = 0x11u;
  EXPECT_EQ(t.words, expected);
  EXPECT_EQ(t.blockPointers, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(decompress(t), std::vector<int16_t>(v.begin(), v.end()));
}
