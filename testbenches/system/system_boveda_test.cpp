// Boveda on the whole accelerator (label boveda, system): compressed MVINs of streams that the
// C++ codec wrote on the host, compressed MVOUTs whose streams must equal the codec's, and a
// matrix product with compressed weights and activations that must equal the uncompressed
// one and a CPU reference. Every program also runs on the functional model and every DRAM
// byte, the error registers and the DMA byte counters are compared (system_run.h).
#include "boveda_system_test.h"
#include "funcmodel/encode.h"
#include "hwspec/array_params.h"
#include "hwspec/isa.h"

#include <utility>

namespace by::test {
namespace {

using namespace boveda_system;

class Boveda : public BovedaSystemTest {
protected:
  Boveda() : BovedaSystemTest(11, "system boveda test data") {}

  fm::Instruction configLdCompressed(int channel, uint32_t blockStride) const {
    fm::ConfigLdArgs a;
    a.channel = channel;
    a.blockStride = blockStride;
    a.stride = kStream;
    a.compressed = true;
    return fm::configLd(a);
  }
  fm::Instruction configStPlain(uint32_t stride) const {
    fm::ConfigStArgs a;
    a.stride = stride;
    return fm::configSt(a);
  }
};

// Blocks of every shape a move allows (one row, one column, several column blocks with a
// block stride, a partial last block), compressed by the codec on the host, moved in with
// compressed MVINs on all three channels and out again with plain MVOUTs.
TEST_F(Boveda, CompressedMvinOfCodecStreams) {
  const int maxCols = p.maxBlockLen * row;
  const std::vector<std::pair<int, int>> shapes = {{row, row},   {1, 1},           {1, maxCols},
                                                   {row + 3, 1}, {3, 2 * row + 1}, {row, maxCols}};
  std::vector<Block> blocks;
  for (size_t i = 0; i < shapes.size() * 2; ++i)
    blocks.push_back(randomBlock(shapes[i % shapes.size()].first, shapes[i % shapes.size()].second,
                                 static_cast<int>(i % 3)));
  writeCompressed(blocks);
  const uint32_t blockStride = static_cast<uint32_t>(row + 1);
  const uint32_t spacing = 80; // local rows per block: (16 column blocks - 1) * 5 + 4 < 80
  for (int ch = 0; ch < 3; ++ch)
    prog.push_back(configLdCompressed(ch, blockStride));
  // Block i to local rows spacing*i on channel i%3; then each column block out to kOut.
  for (size_t i = 0; i < blocks.size(); ++i)
    prog.push_back(fm::mvin(
        static_cast<int>(i % 3), kTable + 8 * i, fm::spAddr(static_cast<uint32_t>(spacing * i)),
        static_cast<uint32_t>(blocks[i].rows), static_cast<uint32_t>(blocks[i].cols)));
  prog.push_back(configStPlain(static_cast<uint32_t>(row * p.inputBytes)));
  for (size_t i = 0; i < blocks.size(); ++i) {
    const int nblk = (blocks[i].cols + row - 1) / row;
    for (int blk = 0; blk < nblk; ++blk)
      prog.push_back(fm::mvout(kOut + 0x1000 * i + 0x100 * blk,
                               fm::spAddr(static_cast<uint32_t>(spacing * i + blk * blockStride)),
                               static_cast<uint32_t>(blocks[i].rows), static_cast<uint32_t>(row)));
  }
  const RunOutcome r = run("boveda_mvin_codec_streams");
  expectBlocksAtOut(r, blocks);
}

// Back-to-back compressed MVINs, several of them refused or failing between good ones, so
// that the loader's queue holds good and bad moves at once: pointer entries with a count of
// 0, a count above what the block can need, a stream past 4 GiB, a stream past the end of
// memory (AXI error on the container reads), a pointer entry outside memory (AXI error on
// the pointer read) and a block whose first group has a bad width code. The good blocks are
// moved out again and compared; the error registers are compared with the model. Move i uses
// channel (i + rotation) % 3 and the program runs with rotations 0, 1 and 2, so that the
// first failing move (whose funct ERROR latches) is an MVIN2, an MVIN3 and an MVIN.
TEST_F(Boveda, BadCompressedMvinsBetweenGoodOnes) {
  const std::vector<std::pair<int, int>> shapes = {
      {row, row}, {3, 2 * row + 1}, {1, 1}, {row + 3, 1}};
  std::vector<Block> blocks;
  for (size_t i = 0; i < 12; ++i)
    blocks.push_back(randomBlock(shapes[i % shapes.size()].first, shapes[i % shapes.size()].second,
                                 static_cast<int>(i % 3)));
  writeCompressed(blocks);
  // Entries 1, 3, 5, 7, 9 and 10 go bad; entry 10's first container gets width code 15.
  put32(kTable + 8 * 1 + 4, 0);
  put32(kTable + 8 * 3 + 4, 0xffffu);
  put32(kTable + 8 * 5, 0xfffffff0u);
  const uint64_t cBytes = static_cast<uint64_t>(p.bovedaFormat.containerBits / 8);
  put32(kTable + 8 * 7, static_cast<uint32_t>((kSize - 0x10000) / cBytes));
  uint32_t first10 = 0;
  for (size_t i = 0; i < 10; ++i)
    first10 += blocks[i].containers;
  const uint64_t c10 = kStream + uint64_t{first10} * cBytes;
  image[c10 - kBase] = static_cast<uint8_t>(image[c10 - kBase] | 0x0f);
  const uint32_t blockStride = static_cast<uint32_t>(row + 1);
  const uint32_t spacing = 80;
  auto bad = [](size_t i) { return i == 1 || i == 3 || i == 5 || i == 7 || i == 9 || i == 10; };
  const uint32_t firstFunct[3] = {hw::isa::kMvin2, hw::isa::kMvin3, hw::isa::kMvin};
  for (int rotation = 0; rotation < 3; ++rotation) {
    prog.clear();
    for (int ch = 0; ch < 3; ++ch)
      prog.push_back(configLdCompressed(ch, blockStride));
    for (size_t i = 0; i < blocks.size(); ++i)
      prog.push_back(fm::mvin(static_cast<int>((i + static_cast<size_t>(rotation)) % 3),
                              i == 9 ? kBase + kSize + 0x100 : kTable + 8 * i,
                              fm::spAddr(static_cast<uint32_t>(spacing * i)),
                              static_cast<uint32_t>(blocks[i].rows),
                              static_cast<uint32_t>(blocks[i].cols)));
    prog.push_back(configStPlain(static_cast<uint32_t>(row * p.inputBytes)));
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (bad(i))
        continue;
      const int nblk = (blocks[i].cols + row - 1) / row;
      for (int blk = 0; blk < nblk; ++blk)
        prog.push_back(fm::mvout(kOut + 0x1000 * i + 0x100 * blk,
                                 fm::spAddr(static_cast<uint32_t>(spacing * i + blk * blockStride)),
                                 static_cast<uint32_t>(blocks[i].rows),
                                 static_cast<uint32_t>(row)));
    }
    const RunOutcome r =
        run("boveda_bad_mvins_between_good_ones_rotation" + std::to_string(rotation));
    EXPECT_EQ(r.modelErrors.code, static_cast<int>(hw::isa::errorCode("DMA_ERROR")));
    EXPECT_EQ(r.modelErrors.funct, static_cast<int>(firstFunct[rotation]));
    EXPECT_EQ(r.modelErrors.count, 6u);
    expectBlocksAtOut(r, blocks, bad);
  }
}

// Each way a compressed MVIN fails after it was issued, on MVIN2 and on MVIN3, after a good
// move of the same channel: ERROR must carry the failing command's funct (and the model
// agrees). Refused entry (count 0), AXI error on the pointer entry, AXI error on the
// containers, malformed block (width code above the element width).
TEST_F(Boveda, FailedCompressedMvinReportsItsFunct) {
  std::vector<Block> blocks = {randomBlock(row, row, 0), randomBlock(row, row, 1)};
  writeCompressed(blocks);
  const uint64_t cBytes = static_cast<uint64_t>(p.bovedaFormat.containerBits / 8);
  const std::vector<uint8_t> good = image;
  const char* kinds[] = {"count0", "pointer_axi_error", "container_axi_error", "malformed"};
  for (int kind = 0; kind < 4; ++kind)
    for (int ch = 1; ch <= 2; ++ch) {
      image = good;
      uint64_t entry = kTable + 8;
      if (kind == 0)
        put32(kTable + 8 + 4, 0);
      else if (kind == 1)
        entry = kBase + kSize + 0x100;
      else if (kind == 2)
        put32(kTable + 8, static_cast<uint32_t>((kSize - 0x10000) / cBytes));
      else
        put8(kStream + uint64_t{blocks[1].first} * cBytes,
             static_cast<uint8_t>(image[kStream + uint64_t{blocks[1].first} * cBytes - kBase] |
                                  0x0f));
      prog.clear();
      prog.push_back(configLdCompressed(ch, static_cast<uint32_t>(row)));
      prog.push_back(fm::mvin(ch, kTable, fm::spAddr(0), static_cast<uint32_t>(row),
                              static_cast<uint32_t>(row)));
      prog.push_back(fm::mvin(ch, entry, fm::spAddr(static_cast<uint32_t>(row)),
                              static_cast<uint32_t>(row), static_cast<uint32_t>(row)));
      const RunOutcome r =
          run(std::string("boveda_failed_mvin_") + kinds[kind] + "_channel" + std::to_string(ch));
      EXPECT_EQ(r.modelErrors.code, static_cast<int>(hw::isa::errorCode("DMA_ERROR")));
      EXPECT_EQ(r.modelErrors.funct, static_cast<int>(ch == 1 ? hw::isa::kMvin2 : hw::isa::kMvin3))
          << kinds[kind];
    }
  image = good;
}

// The loader's pointer lines (docs/boveda.md, "Pointer lines") against the model, which
// follows the same lines: compressed MVINs whose entries are looked up in order, backwards,
// strided, at random and unaligned, on two channels, with a FLUSH and a plain MVOUT among them
// (both invalidate the lines); entries near the end of memory, one in a line that runs past
// it (an AXI error on the line: the entry is read alone); and a compressed MVOUT that rewrites
// an entry of a held line, read back after a fence (the MVOUT invalidated the line). The
// RDMA_BYTES_REC counter (every line read counts LineBytes) must equal the model's; every
// block moved in is moved out and checked.
TEST_F(Boveda, PointerLinesAgreeWithTheModel) {
  const uint64_t memSize = kSize - 40; // memory ends 24 bytes into a line
  image.resize(memSize);
  const uint64_t memEnd = kBase + memSize;
  std::vector<Block> blocks;
  for (int i = 0; i < 24; ++i)
    blocks.push_back(randomBlock(row, row, i % 3));
  writeCompressed(blocks); // entry i at kTable + 8i: three lines of 64 bytes
  auto copyEntry = [&](size_t i, uint64_t at) {
    put32(at, blocks[i].first);
    put32(at + 4, blocks[i].containers);
  };
  const uint64_t unaligned = kTable + 0x403;
  for (size_t i = 0; i < 4; ++i)
    copyEntry(i, unaligned + 8 * i);
  const uint64_t endInside = memEnd - 72, endPast = memEnd - 16; // endPast's line runs past
  ASSERT_EQ(endInside % 8, 0u);
  copyEntry(2, endInside);
  copyEntry(3, endPast);
  const uint64_t stream2 = kStream + 0x8000; // the compressed MVOUT's stream (channel 2)

  int rdmaBytes = -1;
  for (const hw::isa::CounterEvent& e : hw::isa::counterEvents())
    if (e.external && e.name == "RDMA_BYTES_REC")
      rdmaBytes = e.id;
  fm::CounterOpArgs counter;
  counter.configure = true;
  counter.external = true;
  counter.event = rdmaBytes;
  prog.push_back(fm::counterOp(counter));
  for (int ch = 0; ch < 2; ++ch)
    prog.push_back(configLdCompressed(ch, static_cast<uint32_t>(row)));
  fm::ConfigLdArgs l2;
  l2.channel = 2;
  l2.stride = stream2;
  l2.compressed = true;
  prog.push_back(fm::configLd(l2));
  auto rows = [&](size_t i) { return fm::spAddr(static_cast<uint32_t>(row * i)); };
  auto in = [&](int ch, uint64_t entry, size_t block) {
    prog.push_back(
        fm::mvin(ch, entry, rows(block), static_cast<uint32_t>(row), static_cast<uint32_t>(row)));
  };
  for (size_t i = 0; i < 12; ++i)
    in(0, kTable + 8 * i, i);
  for (size_t i = 24; i-- > 12;)
    in(1, kTable + 8 * i, i);
  prog.push_back(fm::flush());
  for (size_t i = 0; i < 24; i += 3)
    in(0, kTable + 8 * i, i);
  prog.push_back(configStPlain(static_cast<uint32_t>(row * p.inputBytes)));
  prog.push_back(
      fm::mvout(kOut + 0x20000, rows(0), static_cast<uint32_t>(row), static_cast<uint32_t>(row)));
  std::vector<size_t> order(24);
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[rng.next() % i]);
  for (size_t k = 0; k < order.size(); ++k)
    in(static_cast<int>(k % 2), kTable + 8 * order[k], order[k]);
  for (size_t i = 0; i < 4; ++i)
    in(1, unaligned + 8 * i, i);
  in(0, endInside, 2);
  in(0, endPast, 3); // a miss whose line read fails: the entry is read alone
  in(0, endPast, 3); // a hit on that line: read alone again
  in(0, endInside, 2);
  // Entry 5's line is held; a compressed MVOUT of block 7's rows rewrites entry 5 (into the
  // stream of channel 2); after a fence, entry 5 on channel 2 must be the new one.
  in(0, kTable + 8 * 4, 4);
  fm::ConfigStArgs st;
  st.stride = static_cast<uint32_t>(stream2);
  st.compressed = true;
  prog.push_back(fm::configSt(st));
  prog.push_back(
      fm::mvout(kTable + 8 * 5, rows(7), static_cast<uint32_t>(row), static_cast<uint32_t>(row)));
  prog.push_back(configStPlain(static_cast<uint32_t>(row * p.inputBytes)));
  prog.push_back(fm::counterOp({})); // fence (the harness waits for idle)
  const size_t copy = 24;            // block 7 again, in rows of its own
  in(2, kTable + 8 * 5, copy);
  for (size_t i = 0; i <= copy; ++i)
    prog.push_back(fm::mvout(kOut + 0x1000 * i, rows(i), static_cast<uint32_t>(row),
                             static_cast<uint32_t>(row)));
  prog.push_back(fm::counterOp({})); // RDMA_BYTES_REC, compared with the model
  const RunOutcome r = run("boveda_pointer_lines");
  EXPECT_EQ(r.modelErrors.count, 0u);
  std::vector<Block> expected = blocks;
  expected.push_back(blocks[7]);
  expectBlocksAtOut(r, expected);
  ASSERT_FALSE(r.responses.empty());
  std::printf("[boveda] pointer lines: RDMA_BYTES_REC %llu\n",
              static_cast<unsigned long long>(r.responses.back().data));
}

// The coherence rule for the host (docs/isa.md, "Boveda: compressed moves"): an entry the host
// rewrites in a line the loader holds is seen only after a CONFIG_LD, MVOUT or FLUSH; the
// accelerator and the model agree on the stale read and on the fresh one after a FLUSH.
TEST_F(Boveda, HostRewriteOfAHeldEntryNeedsAFlush) {
  std::vector<Block> blocks = {randomBlock(row, row, 0), randomBlock(row, row, 2)};
  writeCompressed(blocks); // entry 0 -> block 0, entry 1 -> block 1, one line
  funcmodel::DramImage reference(kBase, kSize);
  reference.bytes() = image;
  fm::FuncModel model(cfg, reference);
  SystemOptions so;
  so.memBase = kBase;
  so.memSize = kSize;
  so.seed = rng.next();
  AccelSystem sys(cfg, so);
  sys.memory().image() = image;
  auto issue = [&](const fm::Instruction& i) {
    EXPECT_TRUE(model.execute(i).accepted) << fm::formatInstruction(i);
    sys.issue(i);
  };
  auto in = [&](uint64_t entry, uint32_t at) {
    issue(
        fm::mvin(0, entry, fm::spAddr(at), static_cast<uint32_t>(row), static_cast<uint32_t>(row)));
  };
  issue(configLdCompressed(0, static_cast<uint32_t>(row)));
  in(kTable, 0); // reads the line of entries 0 and 1
  ASSERT_TRUE(sys.drain()) << sys.hangReport();
  // The host points entry 1 at block 0 (in both memories), after a fence.
  for (int k = 0; k < 8; ++k) {
    const uint32_t field = k < 4 ? blocks[0].first : blocks[0].containers;
    const uint8_t b = static_cast<uint8_t>(field >> (8 * (k % 4)));
    sys.memory().write8(kTable + 8 + static_cast<uint64_t>(k), b);
    reference.at(kTable + 8 + static_cast<uint64_t>(k)) = b;
  }
  const uint32_t gap = static_cast<uint32_t>(2 * row); // local rows between the blocks
  in(kTable + 8, gap);                                 // stale: the held line still says block 1
  issue(fm::flush());
  in(kTable + 8, 2 * gap); // fresh: block 0
  issue(configStPlain(static_cast<uint32_t>(row * p.inputBytes)));
  for (uint32_t i = 0; i < 3; ++i)
    issue(fm::mvout(kOut + 0x1000 * i, fm::spAddr(gap * i), static_cast<uint32_t>(row),
                    static_cast<uint32_t>(row)));
  ASSERT_TRUE(sys.drain()) << sys.hangReport();
  sys.finish();
  EXPECT_TRUE(sys.protocolClean()) << sys.protocolReport();
  EXPECT_TRUE(sys.memory().image() == reference.bytes()) << "accelerator and model differ";
  RunOutcome r;
  r.dram = sys.memory().image();
  expectBlocksAtOut(r, {blocks[0], blocks[1], blocks[0]});
}

// Compressed MVOUTs from the scratchpad and from the accumulator (scaled by 0.5, ReLU,
// saturated): each block's containers must equal the codec's compress() of the values a plain
// MVOUT writes (computed here with the golden arithmetic), placed one after the other from
// container 0, with its pointer entry; a second compressed CONFIG_ST restarts at container 0.
// Then, after a fence, compressed MVINs read the blocks back.
TEST_F(Boveda, CompressedMvoutEqualsCodecAndReadsBack) {
  const int maxCols = p.maxBlockLen * row;
  const std::vector<std::pair<int, int>> shapes = {
      {row, row}, {1, 1}, {2, maxCols}, {row + 1, row - 1}, {3, 2 * row + 1}};
  std::vector<Block> blocks;
  for (size_t i = 0; i < shapes.size(); ++i)
    blocks.push_back(randomBlock(shapes[i].first, shapes[i].second, static_cast<int>(i % 3)));
  // Plain inputs: block i at kRaw + 0x800*i, rows of maxCols bytes (up to DIM*lanes + 1 rows).
  const uint64_t rawStride = static_cast<uint64_t>(maxCols * p.inputBytes);
  for (size_t i = 0; i < blocks.size(); ++i)
    for (int r = 0; r < blocks[i].rows; ++r)
      for (int c = 0; c < blocks[i].cols; ++c)
        for (int k = 0; k < p.inputBytes; ++k)
          put8(kRaw + 0x800 * i + r * rawStride + static_cast<uint64_t>(c * p.inputBytes + k),
               static_cast<uint8_t>(
                   static_cast<uint16_t>(
                       blocks[i].values[static_cast<size_t>(r * blocks[i].cols + c)]) >>
                   (8 * k)));
  // Accumulator rows: dim x dim int32 values around the int8 range.
  std::vector<int64_t> acc;
  for (int i = 0; i < dim * dim; ++i) {
    acc.push_back(static_cast<int64_t>(rng.next() % 801) - 400);
    for (int k = 0; k < p.accBytes; ++k)
      put8(kRaw + 0x8000 + static_cast<uint64_t>(i * p.accBytes + k),
           static_cast<uint8_t>(static_cast<uint64_t>(acc.back()) >> (8 * k)));
  }
  fm::ConfigLdArgs ld;
  ld.stride = rawStride;
  prog.push_back(fm::configLd(ld));
  const uint32_t spacing = 80;
  for (size_t i = 0; i < blocks.size(); ++i)
    prog.push_back(fm::mvin(0, kRaw + 0x800 * i, fm::spAddr(static_cast<uint32_t>(spacing * i)),
                            static_cast<uint32_t>(blocks[i].rows),
                            static_cast<uint32_t>(blocks[i].cols)));
  ld.stride = static_cast<uint64_t>(dim * p.accBytes);
  prog.push_back(fm::configLd(ld));
  prog.push_back(fm::mvin(0, kRaw + 0x8000, fm::accAddr(0), dim, dim));
  fm::ConfigStArgs st;
  st.stride = static_cast<uint32_t>(kStream);
  st.compressed = true;
  prog.push_back(fm::configSt(st));
  for (size_t i = 0; i < blocks.size(); ++i)
    prog.push_back(fm::mvout(kTable + 8 * i, fm::spAddr(static_cast<uint32_t>(spacing * i)),
                             static_cast<uint32_t>(blocks[i].rows),
                             static_cast<uint32_t>(blocks[i].cols)));
  // A second stream for the accumulator block, scaled and activated.
  const uint64_t stream2 = kStream + 0x8000;
  st.stride = static_cast<uint32_t>(stream2);
  st.activation = hw::isa::kActRelu;
  st.accScaleBits = fm::floatBits(0.5f);
  prog.push_back(fm::configSt(st));
  prog.push_back(fm::mvout(kTable + 0x100, fm::accAddr(0), dim, dim));
  // Fence (the harness waits for idle before a COUNTER_OP), then read everything back.
  prog.push_back(fm::counterOp({}));
  fm::ConfigLdArgs cl;
  cl.stride = kStream;
  cl.compressed = true;
  prog.push_back(fm::configLd(cl));
  for (size_t i = 0; i < blocks.size(); ++i)
    prog.push_back(fm::mvin(0, kTable + 8 * i, fm::spAddr(static_cast<uint32_t>(500 + spacing * i)),
                            static_cast<uint32_t>(blocks[i].rows),
                            static_cast<uint32_t>(blocks[i].cols)));
  fm::ConfigStArgs plain;
  plain.stride = static_cast<uint32_t>(rawStride);
  prog.push_back(fm::configSt(plain));
  for (size_t i = 0; i < blocks.size(); ++i)
    for (int blk = 0; blk * row < blocks[i].cols; ++blk) // column blocks DIM rows apart
      prog.push_back(fm::mvout(kOut + 0x800 * i + static_cast<uint64_t>(blk * row * p.inputBytes),
                               fm::spAddr(static_cast<uint32_t>(500 + spacing * i + blk * dim)),
                               static_cast<uint32_t>(blocks[i].rows),
                               static_cast<uint32_t>(std::min(row, blocks[i].cols - blk * row))));
  const RunOutcome r = run("boveda_mvout_codec");

  uint32_t next = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const auto t =
        boveda::compress(format(static_cast<int>(blocks[i].values.size())), blocks[i].values);
    ASSERT_EQ(get32(r.dram, kTable + 8 * i), next) << "block " << i;
    ASSERT_EQ(get32(r.dram, kTable + 8 * i + 4), t.numContainers()) << "block " << i;
    const uint64_t at = kStream + uint64_t{next} * (p.bovedaFormat.containerBits / 8);
    for (size_t w = 0; w < t.words.size(); ++w)
      ASSERT_EQ(get32(r.dram, at + 4 * w), t.words[w]) << "block " << i << " word " << w;
    next += static_cast<uint32_t>(t.numContainers());
    for (int y = 0; y < blocks[i].rows; ++y)
      for (int c = 0; c < blocks[i].cols; ++c)
        ASSERT_EQ(
            getElem(r.dram,
                    kOut + 0x800 * i + y * rawStride + static_cast<uint64_t>(c * p.inputBytes),
                    p.inputBytes),
            blocks[i].values[static_cast<size_t>(y * blocks[i].cols + c)])
            << "read back: block " << i << " row " << y << " col " << c;
  }
  std::vector<int16_t> activated;
  for (int64_t a : acc)
    activated.push_back(static_cast<int16_t>(
        golden::relu(golden::saturate(golden::accScale(a, 0.5f, p.accWidth), p.inputWidth))));
  const auto t = boveda::compress(format(dim * dim), activated);
  EXPECT_EQ(get32(r.dram, kTable + 0x100), 0u) << "a new stream starts at container 0";
  EXPECT_EQ(get32(r.dram, kTable + 0x104), t.numContainers());
  for (size_t w = 0; w < t.words.size(); ++w)
    ASSERT_EQ(get32(r.dram, stream2 + 4 * w), t.words[w]) << "accumulator block word " << w;
}

#ifndef BY_VECTOR_PES
// C = A x B (WS, K accumulated over tiles in the accumulator) with A and B moved in
// compressed, against the same program with plain moves and a CPU reference. A is a
// post-ReLU activation (non-negative, half zeros), B small weights. Its hand-written tile
// program is for one-lane PEs (vector PEs read lane-packed weights: the driver's layouts), so
// the vector-PE build (boveda_l4) leaves it out; the moves above run there with DIM*lanes rows.
TEST_F(Boveda, MatmulWithCompressedOperandsEqualsUncompressed) {
  const int m = 2 * dim, k = 2 * dim, n = dim;
  std::vector<int16_t> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
  for (auto& v : a)
    v = static_cast<int16_t>(rng.next() % 2 ? 0 : rng.next() % 20);
  for (auto& v : b)
    v = static_cast<int16_t>(static_cast<int64_t>(rng.next() % 9) - 4);
  // Plain copies (row-major, k and n bytes per row) and compressed tiles: A tiles are DIM rows
  // x k columns, B tiles DIM rows x n columns, one block each.
  const uint64_t plainA = kRaw, plainB = kRaw + 0x800;
  for (size_t i = 0; i < a.size(); ++i)
    put8(plainA + i, static_cast<uint8_t>(a[i]));
  for (size_t i = 0; i < b.size(); ++i)
    put8(plainB + i, static_cast<uint8_t>(b[i]));
  std::vector<Block> tiles;
  for (int t = 0; t < m / dim; ++t)
    tiles.push_back(
        {dim, k, std::vector<int16_t>(a.begin() + t * dim * k, a.begin() + (t + 1) * dim * k)});
  for (int t = 0; t < k / dim; ++t)
    tiles.push_back(
        {dim, n, std::vector<int16_t>(b.begin() + t * dim * n, b.begin() + (t + 1) * dim * n)});
  writeCompressed(tiles); // entries: A tiles 0..m/dim-1, then B tiles
  const int aTiles = m / dim;

  auto program = [&](bool compressed) {
    fm::Program pr;
    fm::ConfigLdArgs la;
    la.stride = static_cast<uint64_t>(k); // A rows (plain)
    la.channel = 0;
    fm::ConfigLdArgs lb;
    lb.stride = static_cast<uint64_t>(n); // B rows (plain)
    lb.channel = 1;
    if (compressed) {
      la.stride = lb.stride = kStream;
      la.compressed = lb.compressed = true;
    }
    pr.push_back(fm::configLd(la));
    pr.push_back(fm::configLd(lb));
    // A tile t (DIM x k) to SP rows 16*t + (column block) * DIM, B tile kt to SP 200 + DIM*kt.
    for (int t = 0; t < aTiles; ++t)
      pr.push_back(fm::mvin(0, compressed ? kTable + 8 * t : plainA + uint64_t(t * dim * k),
                            fm::spAddr(static_cast<uint32_t>(16 * t)), dim, k));
    for (int kt = 0; kt < k / dim; ++kt)
      pr.push_back(
          fm::mvin(1, compressed ? kTable + 8 * (aTiles + kt) : plainB + uint64_t(kt * dim * n),
                   fm::spAddr(static_cast<uint32_t>(200 + dim * kt)), dim, n));
    fm::ConfigExArgs ex;
    ex.dataflow = hw::kDataflowWS;
    pr.push_back(fm::configEx(ex));
    for (int t = 0; t < aTiles; ++t)
      for (int kt = 0; kt < k / dim; ++kt) {
        wsTileProduct(pr, dim, n, static_cast<uint32_t>(200 + dim * kt),
                      static_cast<uint32_t>(16 * t + dim * kt), static_cast<uint32_t>(dim * t),
                      kt > 0);
      }
    storeResult(pr, compressed ? kOut + 0x1000 : kOut, m, n, p.inputBytes);
    return pr;
  };
  prog = program(false);
  const RunOutcome plainRun = run("boveda_matmul_plain");
  prog = program(true);
  const RunOutcome compRun = run("boveda_matmul_compressed");
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum += int64_t{a[static_cast<size_t>(i * k + kk)]} * b[static_cast<size_t>(kk * n + j)];
      const int64_t want = golden::saturate(sum, p.inputWidth);
      const uint64_t off = static_cast<uint64_t>((i * n + j) * p.inputBytes);
      ASSERT_EQ(getElem(plainRun.dram, kOut + off, p.inputBytes), want) << i << "," << j;
      ASSERT_EQ(getElem(compRun.dram, kOut + 0x1000 + off, p.inputBytes), want) << i << "," << j;
    }
  std::printf("[boveda] matmul %dx%dx%d: plain %llu cycles, compressed %llu cycles\n", m, k, n,
              static_cast<unsigned long long>(plainRun.cycles),
              static_cast<unsigned long long>(compRun.cycles));
}
#endif

} // namespace
} // namespace by::test
