/* CPU references of the kernels, bit for bit what the accelerator computes
 * (docs/arithmetic.md): the kernels' CPU fallback and the tests' independent reference.
 * They use only integer arithmetic and one float multiply per output (accScale), no libc. */
#ifndef BRICKYARD_CPU_H
#define BRICKYARD_CPU_H

#include "brickyard/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* wrap(x, w) and saturate(x, w) of docs/arithmetic.md. */
int64_t by_wrap(int64_t x, int width);
int64_t by_saturate(int64_t x, int width);
/* An accumulator value on its way out: act(saturate(accScale(acc, scale), IW)). */
by_elem_t by_cpu_output(int64_t acc, float scale, int activation);

/* The matmul as the accelerator computes it with `dataflow` and `k_chunk` (by_matmul_plan);
 * reads B through the lane packing when b_packed. */
void by_cpu_matmul(const by_matmul_t* m, int dataflow, size_t k_chunk);
/* The convolution as the accelerator computes it (WS, one DIM x lanes channel block per pass;
 * reads the weights through the lane packing when weights_packed). */
void by_cpu_conv(const by_conv_t* c);
void by_cpu_resadd(size_t I, size_t J, const by_elem_t* A, size_t lda, const by_elem_t* B,
                   size_t ldb, by_elem_t* C, size_t ldc, float scale, int activation);
void by_cpu_global_average(const by_elem_t* input, by_elem_t* output, size_t batch, size_t pixels,
                           size_t channels);

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_CPU_H */
