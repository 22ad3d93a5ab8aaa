#include "conv_loop_case.h"

#include "boveda/codec.h"
#include "hwspec/isa.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>

namespace by::test {

namespace fm = funcmodel;

int ConvLoopCase::poolRows() const {
  return poolStride ? (outRows() + 2 * poolPad - poolSize) / poolStride + 1 : outRows();
}
int ConvLoopCase::poolCols() const {
  return poolStride ? (outCols() + 2 * poolPad - poolSize) / poolStride + 1 : outCols();
}

std::string ConvLoopCase::describe() const {
  std::ostringstream os;
  os << batch << "x" << inRows << "x" << inCols << "x" << inCh << " -> " << outCh << ", k" << kernel
     << " s" << stride << " p" << pad << (bias ? " bias" : "") << (relu ? " relu" : "");
  if (poolStride)
    os << " pool" << poolSize << "/" << poolStride << "/" << poolPad;
  os << " tiles " << tileRows << "/" << tileOch << "/" << tileKch;
  if (this->os)
    os << " OS td" << tdMode;
  if (zeroPercent)
    os << " zeros " << zeroPercent << "%";
  if (keep)
    os << (keep == 1 ? " keeps the input" : " keeps the weights");
  if (dilation != 1)
    os << " dilation " << dilation;
  if (wrot180)
    os << " wrot180";
  if (transWeight1203)
    os << " trans_weight_1203";
  if (transWeight0132)
    os << " trans_weight_0132";
  if (transOutput1203)
    os << " trans_output_1203";
  if (inputDilated)
    os << " input_dilated";
  if (transInput3120)
    os << " trans_input_3120";
  if (compressedWeights)
    os << " compressed weights";
  if (compressedInput)
    os << " compressed input";
  if (compressedOutput)
    os << " compressed output";
  if (depthwise)
    os << " depthwise";
  return os.str();
}

namespace {

void put(std::vector<uint8_t>& image, uint64_t offset, int64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    image.at(offset + static_cast<uint64_t>(i)) =
        static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
}

int64_t saturate(int64_t v, int bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1, lo = -(int64_t{1} << (bits - 1));
  return std::clamp(v, lo, hi);
}

int ceilDiv(int a, int b) {
  return (a + b - 1) / b;
}

// The codec's format for a block of `values` values.
boveda::BovedaParams blockFormat(const fm::ModelParams& p, size_t values) {
  boveda::BovedaParams f = p.bovedaFormat;
  f.blockValues = static_cast<int>(values);
  return f;
}

// Worst-case bytes of a block of `values` values (every group at full width).
uint64_t worstBlockBytes(const fm::ModelParams& p, uint64_t values) {
  const uint64_t groups =
      (values + uint64_t(p.bovedaFormat.groupSize) - 1) / uint64_t(p.bovedaFormat.groupSize);
  const uint64_t bits = uint64_t(p.bovedaFormat.containerBits);
  return (groups * uint64_t(p.bovedaFormat.maxGroupBits()) + bits - 1) / bits * (bits / 8);
}

// Compresses `v` as the next block of the stream at `stream` (container `next`, advanced) and
// writes its pointer entry at `entry` (image offsets from the DRAM base).
void putBlock(const fm::ModelParams& p, std::vector<uint8_t>& image, uint64_t stream,
              uint64_t entry, const std::vector<int16_t>& v, uint64_t& next) {
  const boveda::CompressedTensor ct = boveda::compress(blockFormat(p, v.size()), v);
  const std::vector<uint8_t> bytes = ct.bytes();
  std::copy(bytes.begin(), bytes.end(),
            image.begin() + long(stream + next * uint64_t(p.bovedaFormat.containerBits / 8)));
  for (int i = 0; i < 4; ++i) {
    image.at(entry + uint64_t(i)) = static_cast<uint8_t>(next >> (8 * i));
    image.at(entry + 4 + uint64_t(i)) = static_cast<uint8_t>(ct.numContainers() >> (8 * i));
  }
  next += ct.numContainers();
}

int64_t wrap(int64_t v, int bits) {
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>(((static_cast<uint64_t>(v) & mask) ^ sign) - sign);
}

} // namespace

ConvLoopProgram buildConvLoop(const fm::ModelParams& p, const ConvLoopCase& c, uint64_t base,
                              size_t size, uint64_t seed) {
  const int dim = p.dim, ib = p.inputBytes, ab = p.accBytes, L = p.lanes, kblock = dim * L;
  const int H = c.inRows, W = c.inCols, C = c.inCh, OC = c.outCh, K = c.kernel, S = c.stride;
  const int OH = c.outRows(), OW = c.outCols(), PH = c.poolRows(), PW = c.poolCols();
  const int tr = c.poolStride ? OH : (c.tileRows ? c.tileRows : OH);
  const int to = c.tileOch ? c.tileOch : OC, tk = c.depthwise ? C : c.tileKch ? c.tileKch : C;
  if (c.depthwise && (OC != C || c.transWeight1203 || c.transWeight0132 || c.transInput3120 ||
                      c.transOutput1203 || c.compressedWeights || c.keep))
    throw std::invalid_argument("the depthwise mode refuses this case: " + c.describe());
  // Depthwise: a tap's weights are ceil(DIM / lanes) packed rows of diagonal stripes.
  const int stripeRows = ceilDiv(dim, L);
  if ((c.keep != 0 && tk < C) || (c.keep == 2 && to < OC))
    throw std::invalid_argument("a kept operand needs one tile of its channels: " + c.describe());
  if ((c.transWeight1203 && L > 1) || (c.transOutput1203 && c.poolStride) ||
      (c.transWeight0132 && (L > 1 || c.os || p.tensordash)) ||
      (c.transWeight1203 && c.transWeight0132) || (c.inputDilated && c.tileRows) ||
      (c.transInput3120 && (L > 1 || c.os || p.tensordash || c.transWeight0132)))
    throw std::invalid_argument("the loop refuses this training form: " + c.describe());
  const int group = dim; // compressed weights: blocks of one band and one output block
  if (c.compressedWeights &&
      (!p.boveda || L > 1 || c.transWeight1203 || c.transWeight0132 || (tk < C && tk % dim != 0)))
    throw std::invalid_argument("the loop refuses these compressed weights: " + c.describe());
  const int chGroup = p.maxBlockLen * kblock; // compressed activations: channels per block
  if ((c.compressedInput &&
       (!p.boveda || c.inputDilated || c.transInput3120 || (tk < C && tk % chGroup != 0))) ||
      (c.compressedOutput &&
       (!p.boveda || c.poolStride || c.transOutput1203 || (to < OC && to % chGroup != 0))))
    throw std::invalid_argument("the loop refuses these compressed activations: " + c.describe());
  const int D = c.dilation, KE = c.kernelExtent();
  ConvLoopProgram out;
  out.image.assign(size, 0);
  std::mt19937_64 rng(seed);
  auto value = [&](int bits) {
    const int64_t span = int64_t{1} << bits;
    return static_cast<int64_t>(rng() % static_cast<uint64_t>(span)) - span / 2;
  };
  // DRAM layout: input, weights, bias, output, 4 KiB apart at least.
  auto align = [](uint64_t v) { return (v + 0xfff) & ~uint64_t{0xfff}; };
  const uint64_t in = base + 0x1000;
  // Compressed input: the stream at `in` (room for every block at its worst case), the table
  // after it.
  const int inGroups = ceilDiv(C, chGroup), outGroups = ceilDiv(OC, chGroup);
  const uint64_t inBlocks = uint64_t(c.batch) * H * inGroups;
  const uint64_t inTable = align(in + inBlocks * worstBlockBytes(p, uint64_t(W) * chGroup));
  const uint64_t inEnd =
      c.compressedInput ? inTable + inBlocks * 8 : in + uint64_t(c.batch) * H * W * C * ib;
  const uint64_t w = align(inEnd + 0x100);
  const int tapRows = ceilDiv(C, L); // lane-packed weight rows of a tap (docs/isa.md)
  // Compressed weights: the stream at w (room for every block at its worst case), the pointer
  // table after it.
  const int bands = ceilDiv(C, dim), groups = ceilDiv(OC, group);
  const uint64_t worstBlock = worstBlockBytes(p, uint64_t(dim) * group);
  const uint64_t wTable = align(w + uint64_t(K) * K * bands * groups * worstBlock + 0x100);
  const uint64_t wEnd = c.compressedWeights ? wTable + uint64_t(K) * K * bands * groups * 8
                        : c.depthwise       ? w + uint64_t(K) * K * stripeRows * C * L * ib
                                            : w + uint64_t(K) * K * tapRows * OC * L * ib;
  const uint64_t bias = align(wEnd + 0x100);
  out.output = align(bias + uint64_t(OC) * ab + 0x100);
  const uint64_t outBlocks = uint64_t(c.batch) * OH * outGroups;
  out.outputTable = align(out.output + outBlocks * worstBlockBytes(p, uint64_t(OW) * chGroup));
  out.outputGroups = outGroups, out.groupCols = chGroup;
  const uint64_t outEnd = c.compressedOutput ? out.outputTable + outBlocks * 8
                                             : out.output + uint64_t(c.batch) * OH * OW * OC * ib;
  if (outEnd > base + size)
    throw std::invalid_argument("conv case does not fit the DRAM window: " + c.describe());
  std::vector<int64_t> x(size_t(c.batch) * H * W * C), wt(size_t(K) * K * C * OC), bv(OC, 0);
  // Input x[b][y][x][i], stored so (NHWC) or, trans_input_3120, [i][y][x][b].
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<int>(rng() % 100) < c.zeroPercent ? 0 : value(c.valueBits);
    const size_t ch = i % size_t(C), px = i / size_t(C) % (size_t(H) * W),
                 b = i / (size_t(C) * H * W);
    const size_t at = c.transInput3120 ? (ch * H * W + px) * size_t(c.batch) + b : i;
    if (!c.compressedInput)
      put(out.image, in - base + at * ib, x[i], ib);
  }
  if (c.compressedInput) { // block (b, y, g): W pixels x the group's channels
    uint64_t next = 0;
    for (int b = 0; b < c.batch; ++b)
      for (int y = 0; y < H; ++y)
        for (int g = 0; g < inGroups; ++g) {
          std::vector<int16_t> v;
          for (int xx = 0; xx < W; ++xx)
            for (int i = g * chGroup; i < std::min(C, (g + 1) * chGroup); ++i)
              v.push_back(static_cast<int16_t>(x[((size_t(b) * H + y) * W + xx) * C + i]));
          putBlock(p, out.image, in - base,
                   inTable - base + ((uint64_t(b) * H + y) * inGroups + g) * 8, v, next);
        }
  }
  // Weights W[tap][i][o] (tap as stored) at packed row tap * tapRows + i / L, element
  // o * L + i % L; one lane, trans_weight_1203: at row (i * K * K + tap); trans_weight_0132: at
  // row (tap * OC + o), element i.
  for (int t = 0; t < K * K; ++t)
    for (int i = 0; i < C; ++i)
      for (int o = 0; o < OC; ++o) {
        int64_t& v = wt[(size_t(t) * C + i) * OC + o];
        if (c.depthwise) { // stripe row r = o % DIM holds w[o] at column o
          v = i == o ? value(c.valueBits) : 0;
          const size_t r = size_t(o % dim);
          if (i == o)
            put(out.image,
                w - base + ((size_t(t) * stripeRows + r / L) * C + o) * L * ib + (r % L) * ib, v,
                ib);
          continue;
        }
        const size_t at = c.transWeight1203   ? (size_t(i) * K * K + size_t(t)) * OC + size_t(o)
                          : c.transWeight0132 ? (size_t(t) * OC + size_t(o)) * C + size_t(i)
                                              : (size_t(t) * tapRows + size_t(i / L)) * OC * L +
                                                    size_t(o) * L + i % L;
        put(out.image, w - base + at * ib, v = value(c.valueBits), ib);
      }
  if (c.compressedWeights) { // band (tap, kb) cut into groups, entry (tap*bands + kb)*groups + g
    uint64_t next = 0;
    for (int t = 0; t < K * K; ++t)
      for (int kb = 0; kb < bands; ++kb)
        for (int g = 0; g < groups; ++g) {
          std::vector<int16_t> v;
          for (int r = 0; r < dim; ++r)
            for (int o = g * group; o < std::min(OC, (g + 1) * group); ++o) {
              const int i = kb * dim + r;
              v.push_back(static_cast<int16_t>(i < C ? wt[(size_t(t) * C + i) * OC + o] : 0));
            }
          putBlock(p, out.image, w - base,
                   wTable - base + ((uint64_t(t) * bands + kb) * groups + g) * 8, v, next);
        }
  }
  if (c.bias)
    for (int o = 0; o < OC; ++o)
      put(out.image, bias - base + size_t(o) * ab, bv[o] = value(10), ab);

  // CPU reference: direct convolution, saturation to elem_t, ReLU, max-pooling over zeros. The
  // array's partial sums: a WS pass (one tap, DIM x lanes channels) wraps at the spatial output
  // width; an OS loop (every tap, the tile's channels) wraps at the accumulator width and
  // saturates to the spatial output width; the accumulator adds them up, wrapping.
  std::vector<int64_t> conv(size_t(c.batch) * OH * OW * OC);
  for (int b = 0; b < c.batch; ++b)
    for (int oy = 0; oy < OH; ++oy)
      for (int ox = 0; ox < OW; ++ox)
        for (int o = 0; o < OC; ++o) {
          int64_t acc = bv[o];
          // Tap (ky, kx) reads the input D pixels per tap apart and, with wrot180, the weights
          // stored at the opposite tap.
          // (input_dilated: the taps on the zeros between pixels read nothing.)
          const int dil = c.inputDilated ? 2 : 1;
          auto tapSum = [&](int ky, int kx, int i0, int i1) {
            const int dy = oy * S + ky * D - c.pad, dx = ox * S + kx * D - c.pad;
            const int wy = c.wrot180 ? K - 1 - ky : ky, wx = c.wrot180 ? K - 1 - kx : kx;
            const int iy = dy / dil, ix = dx / dil;
            int64_t s = 0;
            if (dy >= 0 && dx >= 0 && dy % dil == 0 && dx % dil == 0 && iy < H && ix < W)
              for (int i = i0; i < i1; ++i)
                s += x[((size_t(b) * H + iy) * W + ix) * C + i] *
                     wt[((size_t(wy) * K + wx) * C + i) * OC + o];
            return s;
          };
          for (int k0 = 0; k0 < C; k0 += tk) {
            const int k1 = std::min(C, k0 + tk);
            int64_t loopSum = 0;
            for (int ky = 0; ky < K; ++ky)
              for (int kx = 0; kx < K; ++kx)
                for (int i = k0; i < k1; i += kblock) {
                  const int64_t pass = tapSum(ky, kx, i, std::min(k1, i + kblock));
                  if (c.os)
                    loopSum += pass;
                  else
                    acc = wrap(acc + wrap(pass, p.outputWidth), p.accWidth);
                }
            if (c.os)
              acc = wrap(acc + saturate(wrap(loopSum, p.accWidth), p.outputWidth), p.accWidth);
          }
          int64_t v = saturate(acc, p.inputWidth);
          const size_t pixel = c.transOutput1203 ? (size_t(oy) * OW + ox) * c.batch + b
                                                 : (size_t(b) * OH + oy) * OW + ox;
          conv[pixel * OC + o] = c.relu ? std::max<int64_t>(0, v) : v;
        }
  if (c.poolStride) {
    out.want.assign(size_t(c.batch) * PH * PW * OC, 0);
    for (int b = 0; b < c.batch; ++b)
      for (int py = 0; py < PH; ++py)
        for (int px = 0; px < PW; ++px)
          for (int o = 0; o < OC; ++o) {
            int64_t m = INT64_MIN;
            for (int wy = 0; wy < c.poolSize; ++wy)
              for (int wx = 0; wx < c.poolSize; ++wx) {
                const int y = py * c.poolStride + wy - c.poolPad,
                          xx = px * c.poolStride + wx - c.poolPad;
                const bool inside = y >= 0 && y < OH && xx >= 0 && xx < OW;
                m = std::max(m, inside ? conv[((size_t(b) * OH + y) * OW + xx) * OC + o] : 0);
              }
            out.want[((size_t(b) * PH + py) * PW + px) * OC + o] = m;
          }
  } else {
    out.want = conv;
  }

  // The program: Gemmini's tiled_conv set-up, then one loop per tile.
  const int kchB = ceilDiv(tk, kblock), ochB = ceilDiv(to, dim);
  const int irows = (tr - 1) * S + KE, icols = (OW - 1) * S + KE;
  fm::Program& prog = out.program;
  fm::ConfigExArgs ex;
  ex.dataflow = c.os ? 0 : 1, ex.aStride = static_cast<uint32_t>(S);
  ex.tdOff = c.tdMode == 2, ex.tdSide = c.tdMode == 1 ? 1 : 0;
  ex.bTranspose = c.transWeight0132; // the PRELOADs read the stored [o][i] blocks transposed
  ex.aTranspose = c.transInput3120;  // the computes read the stored [i][b] blocks transposed
  prog.push_back(fm::configEx(ex));
  // An input MVIN's pixels: C elements apart (trans_input_3120: the batch).
  fm::ConfigLdArgs inputChannel{0,
                                false,
                                1,
                                static_cast<uint32_t>(c.batch * irows * icols),
                                fm::floatBits(1),
                                uint64_t(c.transInput3120 ? c.batch : C) * ib};
  if (c.compressedInput) // the channel's stride is the stream base
    inputChannel.compressed = true, inputChannel.stride = in;
  prog.push_back(fm::configLd(inputChannel));
  // The weight rows of a tap: OC x L elements apart, or with trans_weight_1203 K x K rows;
  // trans_weight_0132: its rows (output channels) C elements apart.
  const uint64_t weightStride = c.transWeight0132 ? uint64_t(C) : uint64_t(OC) * L;
  // (depthwise: OC = C, the stripes' rows are C x L elements too)
  fm::ConfigLdArgs weightChannel{1,
                                 false,
                                 1,
                                 static_cast<uint32_t>(K * K * kchB * dim),
                                 fm::floatBits(1),
                                 weightStride * ib * (c.transWeight1203 ? K * K : 1)};
  if (c.compressedWeights) // the channel's stride is the stream base
    weightChannel.compressed = true, weightChannel.stride = w;
  prog.push_back(fm::configLd(weightChannel));
  prog.push_back(fm::configLd({2, false, 1, 0, fm::floatBits(1), 0}));
  fm::ConfigStArgs st;
  st.activation = c.relu ? hw::isa::kActRelu : 0;
  st.stride = static_cast<uint32_t>(OC * ib * (c.transOutput1203 ? c.batch : 1));
  if (c.compressedOutput) // a new stream at the output region
    st.compressed = true, st.stride = static_cast<uint32_t>(out.output);
  if (c.poolStride) {
    st.poolStride = static_cast<uint32_t>(c.poolStride),
    st.poolSize = static_cast<uint32_t>(c.poolSize);
    st.upad = st.lpad = static_cast<uint32_t>(c.poolPad);
    st.porows = static_cast<uint32_t>(PH), st.pocols = static_cast<uint32_t>(PW);
    st.orows = static_cast<uint32_t>(OH), st.ocols = static_cast<uint32_t>(OW);
    st.poolOutDim = static_cast<uint32_t>(PW);
  }
  prog.push_back(fm::configSt(st));
  (void)ochB;
  for (int r0 = 0; r0 < OH; r0 += tr)
    for (int o0 = 0; o0 < OC; o0 += to)
      for (int k0 = c.depthwise ? o0 : 0; k0 < (c.depthwise ? o0 + 1 : C); k0 += tk) {
        fm::LoopConvArgs l;
        const int rows = std::min(tr, OH - r0);
        // The window in the (dilated) input's coordinates.
        const int iy0 = r0 * S - c.pad, iyEnd = (r0 + rows - 1) * S + KE - c.pad;
        const int ixEnd = (OW - 1) * S + KE - c.pad;
        const int HD = c.dilatedRows(), WD = c.dilatedCols();
        l.inRowDim = uint32_t(H), l.inColDim = uint32_t(W), l.inChannels = uint32_t(C);
        l.outRowDim = uint32_t(OH), l.outColDim = uint32_t(OW);
        l.poolOutRowDim = uint32_t(PH), l.poolOutColDim = uint32_t(PW);
        l.stride = uint32_t(S), l.kernelDim = uint32_t(K), l.kernelDilation = uint32_t(D);
        l.wrot180 = c.wrot180, l.transWeight1203 = c.transWeight1203;
        l.transOutput1203 = c.transOutput1203, l.batchSize = uint32_t(c.batch);
        l.transWeight0132 = c.transWeight0132, l.outChannels = uint32_t(OC);
        l.batches = uint32_t(c.batch), l.pochs = uint32_t(std::min(to, OC - o0));
        l.krows = l.kcols = uint32_t(K), l.kchs = uint32_t(std::min(tk, C - k0));
        if (c.depthwise) // the tile's channels, in the band's columns from o0 on
          l.depthwise = true, l.kchs = l.pochs, l.inChannels = uint32_t(dim);
        l.upad = uint32_t(std::max(0, -iy0)), l.dpad = uint32_t(std::max(0, iyEnd - HD));
        l.lpad = uint32_t(c.pad), l.rpad = uint32_t(std::max(0, ixEnd - WD));
        l.inputDilated = c.inputDilated, l.transInput3120 = c.transInput3120;
        l.orows = uint32_t(rows), l.ocols = uint32_t(OW);
        l.inStride = uint32_t(C), l.weightStride = uint32_t(weightStride);
        l.outStride = uint32_t(OC);
        l.input = c.transInput3120
                      ? in + ((uint64_t(k0) * H + uint64_t(std::max(iy0, 0))) * W) * c.batch * ib
                      : in + ((uint64_t(std::max(iy0, 0)) * W) * C + k0) * ib;
        l.weights = c.depthwise         ? w + uint64_t(o0) * L * ib
                    : c.transWeight1203 ? w + (uint64_t(k0) * K * K * OC + uint64_t(o0)) * ib
                    : c.transWeight0132 ? w + (uint64_t(o0) * C + uint64_t(k0)) * ib
                                        : w + (uint64_t(k0 / L) * OC * L + uint64_t(o0) * L) * ib;
        // (k0: a multiple of L)
        if (c.compressedWeights) { // the entry of band (tap 0, k0 / DIM), group o0 / group
          l.weightsCompressed = true;
          l.weights = wTable + ((uint64_t(k0) / uint64_t(dim)) * groups + uint64_t(o0 / group)) * 8;
          l.weightStride = uint32_t(groups);
        }
        if (c.compressedInput) { // the entry of row (0, first real row), group k0 / chGroup
          l.inputCompressed = true, l.inStride = uint32_t(inGroups);
          l.input =
              inTable + ((uint64_t(std::max(iy0, 0))) * inGroups + uint64_t(k0 / chGroup)) * 8;
        }
        l.os = c.os;
        if (c.keep == 1) { // the band's window: loaded by its first out-channel tile
          l.aSpadId = 1 + (r0 / tr) % 2;
          if (o0 != 0)
            l.input = 0;
        } else if (c.keep == 2) { // the weights: loaded by the first band's loop
          l.bSpadId = 2;
          if (r0 != 0)
            l.weights = 0;
        }
        const bool firstK = c.depthwise || k0 == 0, lastK = c.depthwise || k0 + tk >= C;
        l.noBias = !firstK;
        l.bias = firstK && c.bias ? bias + uint64_t(o0) * ab : 0;
        l.noPool = c.poolStride == 0;
        const uint64_t firstPixel = uint64_t(r0) * OW * (c.transOutput1203 ? c.batch : 1);
        l.output = !lastK         ? 0
                   : c.poolStride ? out.output + uint64_t(o0) * ib
                                  : out.output + (firstPixel * OC + o0) * ib;
        l.act = c.relu ? 1 : 0;
        if (c.compressedOutput) { // the entry of row (0, r0), group o0 / chGroup
          l.outputCompressed = true, l.outStride = uint32_t(outGroups);
          l.output =
              !lastK ? 0
                     : out.outputTable + (uint64_t(r0) * outGroups + uint64_t(o0 / chGroup)) * 8;
        }
        for (const fm::Instruction& i : fm::loopConv(l))
          prog.push_back(i);
        ++out.loops;
      }
  return out;
}

std::string checkCompressedOutput(const fm::ModelParams& p, const ConvLoopCase& c,
                                  const ConvLoopProgram& cp, const std::vector<uint8_t>& dram,
                                  uint64_t base) {
  const int OH = c.outRows(), OW = c.outCols(), OC = c.outCh;
  auto get32 = [&](uint64_t addr) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= uint32_t{dram.at(addr - base + uint64_t(i))} << (8 * i);
    return v;
  };
  const uint64_t cbytes = uint64_t(p.bovedaFormat.containerBits / 8);
  for (int b = 0; b < c.batch; ++b)
    for (int y = 0; y < OH; ++y)
      for (int g = 0; g < cp.outputGroups; ++g) {
        std::vector<int16_t> v;
        for (int x = 0; x < OW; ++x)
          for (int o = g * cp.groupCols; o < std::min(OC, (g + 1) * cp.groupCols); ++o)
            v.push_back(static_cast<int16_t>(cp.want[((size_t(b) * OH + y) * OW + x) * OC + o]));
        const boveda::CompressedTensor ct = boveda::compress(blockFormat(p, v.size()), v);
        const uint64_t entry = cp.outputTable + ((uint64_t(b) * OH + y) * cp.outputGroups + g) * 8;
        const std::string where = "output block (image " + std::to_string(b) + ", row " +
                                  std::to_string(y) + ", group " + std::to_string(g) + ")";
        if (get32(entry + 4) != ct.numContainers())
          return where + ": " + std::to_string(get32(entry + 4)) + " containers, the codec's " +
                 std::to_string(ct.numContainers());
        const uint64_t at = cp.output + uint64_t(get32(entry)) * cbytes;
        for (size_t i = 0; i < ct.words.size(); ++i)
          if (get32(at + 4 * i) != ct.words[i])
            return where + ": stream word " + std::to_string(i) + " differs from the codec's";
      }
  return "";
}

} // namespace by::test
