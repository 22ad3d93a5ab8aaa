/* Independent CPU references for the suite, written from docs/arithmetic.md and docs/isa.md
 * without the driver's own references (brickyard/cpu.h), which the suite also checks. */
#ifndef BRICKYARD_BM_REF_H
#define BRICKYARD_BM_REF_H

#include "brickyard_isa.h"
#include "brickyard_params.h"

#include <stddef.h>
#include <stdint.h>

static inline int64_t ref_wrap(int64_t x, int w) {
  if (w >= 64)
    return x;
  const int64_t m = (int64_t)1 << w;
  int64_t r = x % m; /* C remainder has the sign of x */
  if (r < 0)
    r += m;
  return r >= m / 2 ? r - m : r;
}
static inline int64_t ref_sat(int64_t x, int w) {
  const int64_t hi = ((int64_t)1 << (w - 1)) - 1;
  return x > hi ? hi : (x < -hi - 1 ? -hi - 1 : x);
}
/* mvout of an accumulator value: act(saturate(accScale(acc, scale), IW)). */
static inline by_elem_t ref_out(int64_t acc, float scale, int relu) {
  int64_t y = ref_sat(by_acc_scale((by_acc_t)acc, scale), BY_INPUT_WIDTH);
  return (by_elem_t)(relu && y < 0 ? 0 : y);
}

/* C (accumulator values) = bias + A*B as the array computes it: the reduction is summed in
 * chunks of k_chunk; a WS chunk wraps at the spatial output width, an OS chunk saturates to it
 * (after wrapping at acc_width); chunks add into the accumulator (wrap at acc_width). */
static inline void ref_matmul(size_t I, size_t J, size_t K, const by_elem_t* A, size_t lda, int a_t,
                              const by_elem_t* B, size_t ldb, int b_t, const int64_t* D, size_t ldd,
                              int ws, size_t k_chunk, int64_t* C) {
  for (size_t i = 0; i < I; ++i)
    for (size_t j = 0; j < J; ++j) {
      int64_t acc = D ? D[i * ldd + j] : 0;
      for (size_t k0 = 0; k0 < K; k0 += k_chunk) {
        int64_t s = 0;
        for (size_t k = k0; k < K && k < k0 + k_chunk; ++k)
          s += (int64_t)(a_t ? A[k * lda + i] : A[i * lda + k]) *
               (b_t ? B[j * ldb + k] : B[k * ldb + j]);
        s = ws ? ref_wrap(s, BY_SPATIAL_OUTPUT_WIDTH)
               : ref_sat(ref_wrap(s, BY_ACC_WIDTH), BY_SPATIAL_OUTPUT_WIDTH);
        acc = ref_wrap(acc + s, BY_ACC_WIDTH);
      }
      C[i * J + j] = acc;
    }
}

/* Convolution output values (before pooling) as int64 accumulator values, NHWC; dense weights
 * [kr][kc][ich][och], depthwise [ch][kr][kc]. One array pass sums one tap over one DIM
 * channel block (wrapping at the spatial output width). */
static inline int64_t ref_conv_acc(const by_elem_t* in, size_t rows, size_t cols, size_t ich,
                                   const by_elem_t* w, size_t och_count, const by_acc_t* bias,
                                   size_t kr_n, size_t kc_n, size_t stride, size_t pad,
                                   size_t dilation, int dw, size_t b, size_t y, size_t x,
                                   size_t och) {
  int64_t acc = bias ? bias[och] : 0;
  for (size_t kr = 0; kr < kr_n; ++kr)
    for (size_t kc = 0; kc < kc_n; ++kc) { /* tap (kr, kc) is kr, kc x dilation pixels in */
      const long r = (long)(y * stride + kr * dilation) - (long)pad;
      const long c = (long)(x * stride + kc * dilation) - (long)pad;
      if (r < 0 || c < 0 || r >= (long)rows || c >= (long)cols)
        continue;
      const by_elem_t* px = in + ((b * rows + (size_t)r) * cols + (size_t)c) * ich;
      if (dw) {
        acc = ref_wrap(acc + px[och] * (int64_t)w[(och * kr_n + kr) * kc_n + kc], BY_ACC_WIDTH);
        continue;
      }
      for (size_t c0 = 0; c0 < ich; c0 += BY_DIM) {
        int64_t s = 0;
        for (size_t ch = c0; ch < ich && ch < c0 + BY_DIM; ++ch)
          s += px[ch] * (int64_t)w[((kr * kc_n + kc) * ich + ch) * och_count + och];
        acc = ref_wrap(acc + ref_wrap(s, BY_SPATIAL_OUTPUT_WIDTH), BY_ACC_WIDTH);
      }
    }
  return acc;
}

#ifdef BY_BOVEDA
/* A Boveda block as docs/boveda.md "Bit format" defines it (no same-width flag: the hardware
 * has none), for the config's format (BY_BOVEDA_*): groups of G values, each an H-bit width
 * w, then (zero-aware) an n-bit non-zero bitmap and w bits per (non-zero) value, all fields
 * least significant bit first; the block zero-padded to whole containers. Writes the stream
 * bytes to out (at most cap bytes, zeroed first) and returns the containers, or 0 if cap is too
 * small. */
static inline unsigned ref_boveda_width(int64_t v) { /* two's-complement width; 0 for 0 */
  if (v == 0)
    return 0;
  unsigned w = 1;
  while (v < -((int64_t)1 << (w - 1)) || v > ((int64_t)1 << (w - 1)) - 1)
    ++w;
  return w;
}
static inline void ref_boveda_put(uint8_t* out, size_t* pos, uint64_t field, unsigned bits) {
  for (unsigned j = 0; j < bits; ++j, ++*pos)
    if ((field >> j) & 1u)
      out[*pos / 8] |= (uint8_t)(1u << (*pos % 8));
}
static inline size_t ref_boveda_encode(const by_elem_t* values, size_t n, uint8_t* out,
                                       size_t cap) {
  const size_t container = BY_BOVEDA_CONTAINER_BITS;
  size_t bits = 0; /* first pass: the block's length */
  for (size_t g = 0; g < n; g += BY_BOVEDA_GROUP_SIZE) {
    const size_t len = n - g < BY_BOVEDA_GROUP_SIZE ? n - g : BY_BOVEDA_GROUP_SIZE;
    unsigned w = 0, nz = 0;
    for (size_t i = g; i < g + len; ++i) {
      const unsigned vw = ref_boveda_width(values[i]);
      w = vw > w ? vw : w;
      nz += values[i] != 0;
    }
    bits += BY_BOVEDA_HEADER_BITS;
    if (w > 0)
      bits += BY_BOVEDA_ZERO_AWARE ? len + (size_t)nz * w : len * w;
  }
  const size_t containers = (bits + container - 1) / container;
  if (containers * container / 8 > cap)
    return 0;
  for (size_t i = 0; i < containers * container / 8; ++i)
    out[i] = 0;
  size_t pos = 0;
  for (size_t g = 0; g < n; g += BY_BOVEDA_GROUP_SIZE) {
    const size_t len = n - g < BY_BOVEDA_GROUP_SIZE ? n - g : BY_BOVEDA_GROUP_SIZE;
    unsigned w = 0;
    for (size_t i = g; i < g + len; ++i) {
      const unsigned vw = ref_boveda_width(values[i]);
      w = vw > w ? vw : w;
    }
    ref_boveda_put(out, &pos, w, BY_BOVEDA_HEADER_BITS);
    if (w == 0)
      continue;
    if (BY_BOVEDA_ZERO_AWARE)
      for (size_t i = g; i < g + len; ++i)
        ref_boveda_put(out, &pos, values[i] != 0, 1);
    for (size_t i = g; i < g + len; ++i)
      if (!BY_BOVEDA_ZERO_AWARE || values[i] != 0)
        ref_boveda_put(out, &pos, (uint64_t)(int64_t)values[i], w);
  }
  return containers;
}
#endif

#endif /* BRICKYARD_BM_REF_H */
