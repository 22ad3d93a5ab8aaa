// The compiler and the driver agree on how every layer runs (issue 26, one owner for tiling):
// for every conv and FC layer shape of ResNet-18, ResNet-50 and MobileNetV2 (layer_shapes.txt),
// the compiler plans a one-layer graph for this test's config, and the host build of the driver
// for the same config (by_driver_<config>, the functional model behind it) is handed the call as
// model.c makes it: by_conv_plan / by_matmul_plan must accept it and return what the compiler
// recorded (path, dataflow, folding, tiles, k_chunk, workspace), the workspace the program
// provides must be the one the driver asks for, and where the compiler forces the command path
// or tiles, the driver runs exactly those. The two by_hw_t (the compiler's from the config, the
// driver's from its generated headers and HW_FEATURES) must be equal field by field. One test
// binary per config (BY_PLANNER_CONFIG): each links that config's driver.
#include "brickyard/boveda.h"
#include "brickyard/kernels.h"
#include "compiler/error.h"
#include "compiler/plan.h"
#include "config/loader.h"
#include "seed.h"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

namespace by::compiler {
namespace {

struct Row {
  std::string net, kind;
  int h = 0, w = 0, cin = 0, cout = 0, k = 1, stride = 1, pad = 0;
  FusedPool pool;
  std::string act;
  std::string str() const {
    std::ostringstream os;
    os << net << " " << kind << " " << h << "x" << w << "x" << cin << " -> " << cout << " k" << k
       << " s" << stride << " p" << pad << " pool " << pool.size << "/" << pool.stride << "/"
       << pool.pad << " " << act;
    return os.str();
  }
};

std::vector<Row> readRows() {
  std::ifstream in(std::string(BY_SOURCE_DIR) + "/testbenches/compiler/layer_shapes.txt");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream is(line);
    Row r;
    is >> r.net >> r.kind >> r.h >> r.w >> r.cin >> r.cout >> r.k >> r.stride >> r.pad >>
        r.pool.size >> r.pool.stride >> r.pool.pad >> r.act;
    if (!is)
      ADD_FAILURE() << "layer_shapes.txt: bad line '" << line << "'";
    rows.push_back(r);
  }
  return rows;
}

/// A quantized one-layer graph of the row: random int8 weights, a bias, half the input zeros.
Graph oneLayer(const Row& r, std::mt19937& rng) {
  Graph g;
  const bool fc = r.kind == "fc", dw = r.kind == "dw";
  Layer l;
  l.kind = fc ? LayerKind::Dense : LayerKind::Conv;
  l.name = r.net + "_" + r.kind;
  l.window.kh = l.window.kw = r.k;
  l.window.strideH = l.window.strideW = r.stride;
  l.window.padT = l.window.padL = l.window.padB = l.window.padR = r.pad;
  l.depthwise = dw;
  l.pool = r.pool;
  auto pooled = [&](int n) {
    return r.pool.present() ? (n + 2 * r.pool.pad - r.pool.size) / r.pool.stride + 1 : n;
  };
  const Shape out = fc ? Shape{1, 1, 1, r.cout}
                       : Shape{1, pooled(l.window.outH(r.h)), pooled(l.window.outW(r.w)), r.cout};
  Tensor x, y;
  x.name = "x", x.shape = Shape{1, r.h, r.w, r.cin}, x.scale = 0.05, x.zeroFraction = 0.5;
  y.name = "y", y.shape = out, y.scale = 0.05;
  g.input = g.addTensor(x);
  g.output = g.addTensor(y);
  l.inputs = {g.input};
  l.output = g.output;
  const size_t weights = dw ? size_t(r.cin) * r.k * r.k : size_t(r.k) * r.k * r.cin * r.cout;
  std::uniform_int_distribution<int> value(-128, 127);
  l.qweights.resize(weights);
  for (int8_t& v : l.qweights)
    v = int8_t(value(rng));
  l.qbias.assign(size_t(r.cout), 7);
  l.multiplier = 1.0f / 256;
  if (r.act != "none") {
    l.act.hasLo = true;
    l.qmin = 0;
  }
  if (r.act == "relu6") {
    l.act.hasHi = true, l.act.hi = 6;
    l.qmax = 100;
  }
  g.layers.push_back(l);
  return g;
}

/// Addresses the driver checks but, planning, does not read: below 4 GiB as DMA needs them.
const void* dramAt(uintptr_t a) {
  return reinterpret_cast<const void*>(a);
}
constexpr uintptr_t kInput = 0x10000000, kWeights = 0x20000000, kOutput = 0x30000000,
                    kBias = 0x40000000, kWorkspace = 0x50000000, kStream = 0x60000000;

/// The pointer table of compressed weights, which the driver reads (in the low image: the host
/// driver's DMA reaches it).
unsigned char bovedaTable[4 << 20];

int tdMode(const LayerPlan& p) {
  return p.tdMode == 1 ? BY_TD_SCHEDULE_B : p.tdMode == 2 ? BY_TD_OFF : BY_TD_SCHEDULE_A;
}

/// The by_boveda_matrix_t model.c declares for compressed weights.
by_boveda_matrix_t bovedaMatrix(const Program& prog, const LayerPlan& p, size_t cols) {
  EXPECT_LE(size_t(p.bovedaTable.bytes), sizeof bovedaTable);
  std::memcpy(bovedaTable, prog.blob.data() + p.bovedaTable.offset, size_t(p.bovedaTable.bytes));
  return {size_t(p.bovedaRows),         cols,
          size_t(p.bovedaBlockCols),    const_cast<void*>(dramAt(kStream)),
          size_t(p.bovedaStream.bytes), bovedaTable};
}

/// The by_conv_t model.c fills for the layer (emit_c.cpp convFields).
by_conv_t driverConv(const Layer& l, const LayerPlan& p, bool td) {
  const by_conv_shape_t& s = p.conv->shape;
  by_conv_t c;
  by_conv_init(&c);
  c.batch = s.batch, c.in_rows = s.in_rows, c.in_cols = s.in_cols;
  c.in_ch = s.in_ch, c.out_ch = s.out_ch;
  c.kernel_rows = s.kernel_rows, c.kernel_cols = s.kernel_cols;
  c.stride = s.stride, c.stride_cols = s.stride_cols;
  c.explicit_pads = 1;
  c.pad_top = s.pad_top, c.pad_left = s.pad_left, c.pad_bottom = s.pad_bottom;
  c.pad_right = s.pad_right;
  c.depthwise = s.depthwise;
  c.input = static_cast<const by_elem_t*>(dramAt(kInput));
  if (p.weights.present())
    c.weights = static_cast<const by_elem_t*>(dramAt(kWeights));
  if (p.bias.present())
    c.bias = static_cast<const by_acc_t*>(dramAt(kBias));
  c.output = static_cast<by_elem_t*>(const_cast<void*>(dramAt(kOutput)));
  c.activation = reluOnMvout(l) ? BY_ACT_RELU : BY_ACT_NONE;
  c.scale = l.multiplier;
  c.pool_size = s.pool_size, c.pool_stride = s.pool_stride, c.pool_padding = s.pool_padding;
  c.tile_rows = s.tile_rows, c.tile_och = s.tile_och, c.tile_k = s.tile_k;
  c.path = s.path;
  c.weights_packed = s.weights_packed;
  if (s.dataflow != BY_DATAFLOW_AUTO)
    c.dataflow = p.dataflow == "OS" ? BY_DATAFLOW_OS : BY_DATAFLOW_WS;
  if (!p.onCpu && td && p.dataflow == "OS")
    c.tensordash = tdMode(p);
  if (p.workspaceBytes > 0 && p.kernel != Kernel::Im2colConv) {
    c.workspace = const_cast<void*>(dramAt(kWorkspace));
    c.workspace_bytes = size_t(p.workspaceBytes);
  }
  c.on_cpu = p.onCpu;
  return c;
}

/// The by_matmul_t model.c fills (emit_c.cpp matmul).
by_matmul_t driverMatmul(const Layer& l, const LayerPlan& p, bool td, int lanes) {
  const by_matmul_shape_t& s = p.matmul->shape;
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = s.I, m.J = s.J, m.K = s.K;
  m.A = static_cast<const by_elem_t*>(dramAt(kInput)), m.lda = s.K;
  if (s.b_transposed) { // one image: J x K weights, the driver runs the transpose
    m.B = static_cast<const by_elem_t*>(dramAt(kWeights));
    m.ldb = s.K;
    m.b_transposed = 1;
  } else if (!p.bovedaStream.present()) {
    m.B = static_cast<const by_elem_t*>(dramAt(kWeights));
    m.ldb = s.J * size_t(lanes);
    m.b_packed = 1;
  }
  if (p.bias.present())
    m.D = dramAt(kBias), m.ldd = s.J, m.repeating_bias = 1;
  m.C = const_cast<void*>(dramAt(kOutput)), m.ldc = s.J;
  m.activation = reluOnMvout(l) ? BY_ACT_RELU : BY_ACT_NONE;
  m.scale = l.multiplier;
  m.dataflow = p.dataflow == "OS" ? BY_DATAFLOW_OS : BY_DATAFLOW_WS;
  m.tile_i = s.tile_i, m.tile_j = s.tile_j, m.tile_k = s.tile_k;
  if (td)
    m.tensordash = tdMode(p);
  return m;
}

/// A compressed activation tensor of `t` as model.c declares it (emit_c.cpp compressedTensors):
/// the compiler's table and worst-case stream sizes, which must be the driver's.
by_boveda_tensor_t compressedTensor(const Program& prog, const Tensor& t, int index, uintptr_t at) {
  const Shape& s = t.shape;
  by_boveda_tensor_t z = {size_t(s.n),
                          size_t(s.h),
                          size_t(s.w),
                          size_t(s.c),
                          const_cast<void*>(dramAt(at + 0x1000000)),
                          size_t(prog.memory.bovedaStream[size_t(index)]),
                          const_cast<void*>(dramAt(at))};
  EXPECT_EQ(by_boveda_tensor_table_bytes(&z), size_t(prog.memory.bovedaTable[size_t(index)]));
  EXPECT_EQ(by_boveda_tensor_stream_bytes(&z), z.stream_bytes);
  return z;
}

void checkConv(const Program& prog, const Layer& l, const LayerPlan& p, const Graph* g = nullptr) {
  by_conv_t c = driverConv(l, p, prog.config.tensordash.enabled);
  by_boveda_tensor_t zin{}, zout{};
  if (p.conv->shape.input_compressed) { // the tensors of a chain (CompressedActivations)
    zin = compressedTensor(prog, g->tensors[size_t(l.inputs[0])], l.inputs[0], kInput);
    c.input_boveda = &zin;
  }
  if (p.conv->shape.output_compressed) {
    zout = compressedTensor(prog, g->tensors[size_t(l.output)], l.output, kOutput);
    c.output_boveda = &zout;
  }
  by_boveda_matrix_t compressed;
  if (p.bovedaStream.present()) {
    compressed = bovedaMatrix(prog, p, c.out_ch);
    c.weights_boveda = &compressed;
  }
  by_conv_plan_t d;
  ASSERT_EQ(by_conv_plan(&c, &d), BY_OK) << by_status_string(by_conv_plan(&c, &d));
  const by_conv_plan_t& want = p.conv->plan;
  EXPECT_EQ(d.workspace_bytes, want.workspace_bytes);
  // The program's workspace is by_conv's (the im2col matrix of Im2colConv is the compiler's).
  EXPECT_EQ(by_conv_workspace_bytes(&c),
            p.kernel == Kernel::Im2colConv ? 0 : size_t(p.workspaceBytes));
  if (p.onCpu)
    return;
  EXPECT_EQ(d.path, want.path);
  EXPECT_EQ(d.loop, want.loop);
  EXPECT_EQ(d.dataflow, want.dataflow);
  EXPECT_EQ(d.dataflow, p.dataflow == "OS" ? BY_DATAFLOW_OS : BY_DATAFLOW_WS);
  EXPECT_EQ(d.folded, want.folded);
  EXPECT_EQ(d.depthwise_mode, want.depthwise_mode);
  EXPECT_EQ(d.tile_batch, want.tile_batch);
  EXPECT_EQ(d.tile_rows, want.tile_rows);
  EXPECT_EQ(d.tile_och, want.tile_och);
  EXPECT_EQ(d.tile_k, want.tile_k);
  // What the compiler forces runs as forced.
  const by_conv_shape_t& s = p.conv->shape;
  if (s.path == BY_CONV_COMMANDS) {
    EXPECT_EQ(d.path, BY_CONV_COMMANDS);
  }
  if (s.tile_rows && d.path == BY_CONV_COMMANDS) {
    EXPECT_EQ(d.tile_rows, s.tile_rows);
    EXPECT_EQ(d.tile_och, s.tile_och);
    EXPECT_EQ(d.tile_k, s.tile_k);
  }
}

void checkMatmul(const Program& prog, const Layer& l, const LayerPlan& p) {
  by_matmul_t m = driverMatmul(l, p, prog.config.tensordash.enabled, prog.config.array.lanes);
  by_boveda_matrix_t compressed;
  if (p.bovedaStream.present()) {
    compressed = bovedaMatrix(prog, p, m.J);
    m.B_boveda = &compressed;
  }
  by_matmul_plan_t d;
  ASSERT_EQ(by_matmul_plan(&m, &d), BY_OK);
  const by_matmul_plan_t& want = p.matmul->plan;
  EXPECT_EQ(d.dataflow, want.dataflow);
  EXPECT_EQ(d.dataflow, p.dataflow == "OS" ? BY_DATAFLOW_OS : BY_DATAFLOW_WS);
  EXPECT_EQ(d.tile_i, want.tile_i);
  EXPECT_EQ(d.tile_j, want.tile_j);
  EXPECT_EQ(d.tile_k, want.tile_k);
  EXPECT_EQ(d.k_chunk, want.k_chunk);
  EXPECT_EQ(d.loop, want.loop);
  EXPECT_EQ(d.transposed, want.transposed);
  // The tiles the program forces run as forced, with the chunk the int8 reference models.
  EXPECT_EQ(d.tile_i, p.matmul->shape.tile_i);
  EXPECT_EQ(d.tile_j, p.matmul->shape.tile_j);
  EXPECT_EQ(d.tile_k, p.matmul->shape.tile_k);
  EXPECT_EQ(int64_t(d.k_chunk), p.chunk.chunk);
  EXPECT_EQ(by_matmul_workspace_bytes(&m), 0u); // the program gives by_matmul none
}

/// A layer the compiler refuses: the driver must refuse its natural call too (the automatic
/// path, tiles and dataflow, the pool fused where CONFIG_ST holds it, weights packed for vector
/// PEs, a workspace as large as it asks for), so that the compiler refuses only what the
/// driver cannot run.
void checkRefused(const Row& r) {
  by_hw_t hw;
  by_hw_get(&hw);
  if (r.kind == "fc") {
    by_matmul_t m;
    by_matmul_init(&m);
    m.I = 1, m.J = size_t(r.cout), m.K = size_t(r.cin);
    by_matmul_plan_t d;
    EXPECT_NE(by_matmul_plan(&m, &d), BY_OK);
    return;
  }
  by_conv_t c;
  by_conv_init(&c);
  c.batch = 1, c.in_rows = size_t(r.h), c.in_cols = size_t(r.w);
  c.in_ch = size_t(r.cin), c.out_ch = size_t(r.cout);
  c.kernel_rows = c.kernel_cols = size_t(r.k);
  c.stride = size_t(r.stride), c.padding = size_t(r.pad);
  c.depthwise = r.kind == "dw";
  c.input = static_cast<const by_elem_t*>(dramAt(kInput));
  c.weights = static_cast<const by_elem_t*>(dramAt(kWeights));
  c.bias = static_cast<const by_acc_t*>(dramAt(kBias));
  c.output = static_cast<by_elem_t*>(const_cast<void*>(dramAt(kOutput)));
  c.activation = r.act == "none" ? BY_ACT_NONE : BY_ACT_RELU;
  c.weights_packed = 1;
  if (r.pool.present()) {
    by_conv_t pooled = c;
    pooled.pool_size = size_t(r.pool.size), pooled.pool_stride = size_t(r.pool.stride);
    pooled.pool_padding = size_t(r.pool.pad);
    if (by_plan_pool_fits(&hw, pooled.pool_size, pooled.pool_stride, pooled.pool_padding,
                          by_conv_out_cols(&pooled), by_conv_pool_cols(&pooled)))
      c = pooled;
  }
  c.workspace = const_cast<void*>(dramAt(kWorkspace));
  c.workspace_bytes = by_conv_workspace_bytes(&c);
  by_conv_plan_t d;
  EXPECT_NE(by_conv_plan(&c, &d), BY_OK)
      << "path " << d.path << " tiles " << d.tile_rows << "x" << d.tile_och << "x" << d.tile_k;
}

config::Config testConfig() {
  return config::loadConfigFile(BY_PLANNER_CONFIG);
}

TEST(PlannerAgreement, CompilerAndDriverSeeTheSameHardware) {
  const by_hw_t c = plannerHw(testConfig());
  by_hw_t d;
  by_hw_get(&d);
  EXPECT_EQ(c.dim, d.dim);
  EXPECT_EQ(c.lanes, d.lanes);
  EXPECT_EQ(c.sp_rows, d.sp_rows);
  EXPECT_EQ(c.acc_rows, d.acc_rows);
  EXPECT_EQ(c.max_block_len, d.max_block_len);
  EXPECT_EQ(c.dma_max_bytes, d.dma_max_bytes);
  EXPECT_EQ(c.dma_request_min_bytes, d.dma_request_min_bytes);
  EXPECT_EQ(c.dma_write_request_min_bytes, d.dma_write_request_min_bytes);
  EXPECT_EQ(c.dma_round_trip_bytes, d.dma_round_trip_bytes);
  EXPECT_EQ(c.elem_bytes, d.elem_bytes);
  EXPECT_EQ(c.acc_bytes, d.acc_bytes);
  EXPECT_EQ(c.input_width, d.input_width);
  EXPECT_EQ(c.acc_width, d.acc_width);
  EXPECT_EQ(c.spatial_output_width, d.spatial_output_width);
  EXPECT_EQ(c.ws, d.ws);
  EXPECT_EQ(c.os, d.os);
  EXPECT_EQ(c.tensordash, d.tensordash);
  EXPECT_EQ(c.boveda, d.boveda);
  EXPECT_EQ(c.loop_ws, d.loop_ws);
  EXPECT_EQ(c.loop_conv_ws, d.loop_conv_ws);
  EXPECT_EQ(c.loop_conv_os, d.loop_conv_os);
  EXPECT_EQ(c.loop_conv_ws_depthwise, d.loop_conv_ws_depthwise);
  EXPECT_EQ(c.loop_conv_os_depthwise, d.loop_conv_os_depthwise);
  EXPECT_EQ(c.transposer, d.transposer);
  EXPECT_EQ(c.dataflow_ws, d.dataflow_ws);
  EXPECT_EQ(c.dataflow_os, d.dataflow_os);
  EXPECT_EQ(c.act_none, d.act_none);
  EXPECT_EQ(c.act_relu, d.act_relu);
  EXPECT_EQ(c.loop_dim_max, d.loop_dim_max);
  EXPECT_EQ(c.loop_stride_max, d.loop_stride_max);
  EXPECT_EQ(c.loop_dilation_max, d.loop_dilation_max);
  EXPECT_EQ(c.loop_dpad_max, d.loop_dpad_max);
  EXPECT_EQ(c.mvin_rows_max, d.mvin_rows_max);
  EXPECT_EQ(c.pool_small_max, d.pool_small_max);
  EXPECT_EQ(c.pool_dim_max, d.pool_dim_max);
}

TEST(PlannerAgreement, DriverRunsWhatTheCompilerPlannedForEveryResNetAndMobileNetLayer) {
  const config::Config cfg = testConfig();
  std::mt19937 rng(uint32_t(test::testSeed(26, "planner agreement weights")));
  const std::vector<Row> rows = readRows();
  ASSERT_GT(rows.size(), 60u);
  int convs = 0, matmuls = 0, cpu = 0, refused = 0;
  for (const Row& r : rows) {
    SCOPED_TRACE(r.str() + " on " + cfg.name);
    const Graph g = oneLayer(r, rng);
    Program prog;
    try {
      prog = planProgram(g, cfg, PlanOptions{});
    } catch (const CompileError& e) {
      std::printf("refused: %s: %s\n", r.str().c_str(), e.what());
      checkRefused(r);
      ++refused;
      continue;
    }
    const Layer& l = g.layers[0];
    const LayerPlan& p = prog.layers[0];
    ASSERT_TRUE(p.conv || p.matmul) << kernelName(p.kernel);
    if (p.conv) {
      checkConv(prog, l, p);
      ++(p.onCpu ? cpu : convs);
    } else {
      checkMatmul(prog, l, p);
      ++matmuls;
    }
  }
  std::printf("%s: %d by_conv layers, %d by_matmul layers, %d on the CPU, %d refused\n",
              cfg.name.c_str(), convs, matmuls, cpu, refused);
  EXPECT_GT(convs + matmuls, 0);
}

// Activations stored compressed between two convolutions (docs/boveda.md, "Compressed
// activations"): chains of two layers of layer_shapes.txt's dense unpooled convolutions, the
// second a 3x3 and a 1x1 convolution over the first's output. Where the compiler compresses the
// tensor, the driver accepts both calls with the compressed tensors model.c declares, runs them
// as planned, and sizes the tensor as the compiler's DRAM plan does. On a Boveda config with
// the convolution loops at least one chain compresses; elsewhere none does.
TEST(PlannerAgreement, CompressedActivationsBetweenConvolutions) {
  const config::Config cfg = testConfig();
  std::mt19937 rng(uint32_t(test::testSeed(28, "compressed activation chains")));
  int chains = 0, compressed = 0;
  for (const Row& first : readRows()) {
    if (first.kind != "conv" || first.pool.present() || first.act == "none")
      continue;
    for (int k : {3, 1}) {
      Row second = first;
      second.h = (first.h + 2 * first.pad - first.k) / first.stride + 1;
      second.w = (first.w + 2 * first.pad - first.k) / first.stride + 1;
      second.cin = first.cout, second.k = k, second.stride = 1, second.pad = k / 2;
      SCOPED_TRACE(first.str() + " then " + second.str() + " on " + cfg.name);
      Graph g = oneLayer(first, rng);
      const Graph tail = oneLayer(second, rng);
      Tensor y = tail.tensors[size_t(tail.output)];
      g.tensors[size_t(g.output)].zeroFraction = 0.5;
      const int out = g.addTensor(y);
      Layer l2 = tail.layers[0];
      l2.inputs = {g.output};
      l2.output = out;
      g.layers.push_back(l2);
      g.output = out;
      Program prog;
      try {
        prog = planProgram(g, cfg, PlanOptions{});
      } catch (const CompileError&) {
        continue; // a layer the driver cannot run: DriverRunsWhatTheCompilerPlanned covers it
      }
      ++chains;
      const int t = g.layers[0].output;
      if (!prog.memory.compressed(t))
        continue;
      ++compressed;
      for (size_t li = 0; li < 2; ++li)
        if (prog.layers[li].conv)
          checkConv(prog, g.layers[li], prog.layers[li], &g);
      EXPECT_TRUE(prog.layers[0].conv->shape.output_compressed);
      EXPECT_TRUE(prog.layers[1].conv->shape.input_compressed);
    }
  }
  by_hw_t hw;
  by_hw_get(&hw);
  std::printf("%s: %d of %d conv chains store their tensor compressed\n", cfg.name.c_str(),
              compressed, chains);
  EXPECT_GT(chains, 20);
  if (hw.boveda && (hw.loop_conv_ws || hw.loop_conv_os))
    EXPECT_GT(compressed, 0);
  else
    EXPECT_EQ(compressed, 0);
}

} // namespace
} // namespace by::compiler

// The host driver wraps main (its stack must be below 4 GiB for the DMA), so the test defines
// its own rather than take gtest_main's after the driver in the link.
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
