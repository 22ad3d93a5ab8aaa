/* Driver benchmarks (docs/BENCHMARKS.md "Driver kernels"): a 512x512x512 matmul and a
 * ResNet-50-style 3x3 convolution (56x56x64 -> 64, stride 1, padding 1) on the default config,
 * each checked against the CPU fallback. Prints the tiling, the ideal cycles (MACs / peak MACs
 * per cycle) and, on the SoC (BY_HAL_TIMED), measured cycles and utilization; on the host
 * (functional model) the commands issued. Builds for the host and the SoC. */
#include "bench_util.h"
#include "brickyard/brickyard.h"

#include <stdio.h>

#define MM 512
#define H 56
#define CH 64
static by_elem_t A[MM * MM], B[MM * MM], C[MM * MM], Cref[MM * MM];
static by_elem_t in[H * H * CH], w[3 * 3 * CH * CH], out[H * H * CH], out_ref[H * H * CH];
static by_acc_t bias[CH];

#if !BY_HAL_TIMED
static void print_commands(const char* name, uint64_t before[128]) {
  static const struct {
    uint32_t funct;
    const char* name;
  } f[] = {{BY_FUNCT_CONFIG, "CONFIG"},
           {BY_FUNCT_MVIN, "MVIN"},
           {BY_FUNCT_MVIN2, "MVIN2"},
           {BY_FUNCT_MVIN3, "MVIN3"},
           {BY_FUNCT_MVOUT, "MVOUT"},
           {BY_FUNCT_PRELOAD, "PRELOAD"},
           {BY_FUNCT_COMPUTE_PRELOADED, "COMPUTE_PRELOADED"},
           {BY_FUNCT_COMPUTE_ACCUMULATED, "COMPUTE_ACCUMULATED"}};
  printf("%s commands:", name);
  for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i) {
    printf(" %s %llu", f[i].name,
           (unsigned long long)(by_host_commands(f[i].funct) - before[f[i].funct]));
    before[f[i].funct] = by_host_commands(f[i].funct);
  }
  printf("\n");
}
#endif

int main(void) {
  int ok = 1;
  for (size_t i = 0; i < MM * MM; ++i) {
    A[i] = bench_next();
    B[i] = bench_next();
  }
#if !BY_HAL_TIMED
  uint64_t counts[128] = {0};
#endif
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = m.J = m.K = MM;
  m.A = A;
  m.B = B;
  m.C = Cref;
  m.lda = m.ldb = m.ldc = MM;
  m.scale = 1.0f / 1024;
  by_matmul_plan_t plan;
  by_matmul_plan(&m, &plan);
  printf("matmul %dx%dx%d: %s, tiles %lux%lux%lu blocks\n", MM, MM, MM,
         plan.dataflow == BY_DATAFLOW_WS ? "WS" : "OS", (unsigned long)plan.tile_i,
         (unsigned long)plan.tile_j, (unsigned long)plan.tile_k);
  m.on_cpu = 1;
  by_matmul(&m);
  m.on_cpu = 0;
  m.C = C;
  uint64_t t0 = by_cycles();
  ok &= by_matmul(&m) == BY_OK;
  uint64_t t1 = by_cycles();
  ok &= bench_same(C, Cref, MM * MM);
  bench_report("matmul", (uint64_t)MM * MM * MM, t1 - t0);
#if !BY_HAL_TIMED
  print_commands("matmul", counts);
#endif

  for (size_t i = 0; i < sizeof in; ++i)
    in[i] = bench_next();
  for (size_t i = 0; i < sizeof w; ++i)
    w[i] = (by_elem_t)(bench_next() / 8);
  for (size_t i = 0; i < CH; ++i)
    bias[i] = bench_next() * 16;
  by_conv_t c;
  by_conv_init(&c);
  c.batch = 1;
  c.in_rows = c.in_cols = H;
  c.in_ch = c.out_ch = CH;
  c.kernel_rows = c.kernel_cols = 3;
  c.padding = 1;
  c.input = in;
  c.weights = w;
  c.bias = bias;
  c.output = out_ref;
  c.activation = BY_ACT_RELU;
  c.scale = 1.0f / 256;
  c.on_cpu = 1;
  by_conv(&c);
  c.on_cpu = 0;
  c.output = out;
  t0 = by_cycles();
  ok &= by_conv(&c) == BY_OK;
  t1 = by_cycles();
  ok &= bench_same(out, out_ref, sizeof out);
  bench_report("conv 3x3 56x56x64->64", (uint64_t)H * H * CH * 9 * CH, t1 - t0);
#if !BY_HAL_TIMED
  print_commands("conv", counts);
#endif
  printf("results %s the CPU reference\n", ok ? "match" : "DO NOT match");
  return ok ? 0 : 1;
}
