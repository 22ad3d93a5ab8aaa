/* Layer operations a compiled network needs besides the matmul/conv kernels (brickyard/
 * kernels.h): moving tensors around on the accelerator (2-D copies, im2col), and the CPU
 * versions of the layers the array has no datapath for (stand-alone max and average pooling,
 * softmax, clamping, table functions, element-wise products, layout changes). All work on NHWC int8
 * tensors; the arithmetic is that of docs/arithmetic.md and docs/compiler.md ("Layers on the CPU").
 */
#ifndef BRICKYARD_LAYERS_H
#define BRICKYARD_LAYERS_H

#include "brickyard/kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A 2-D window over an NHWC image: kernel, strides and the four paddings. */
typedef struct {
  size_t batch, in_rows, in_cols, channels;
  size_t kernel_rows, kernel_cols, stride_rows, stride_cols;
  size_t pad_top, pad_left, pad_bottom, pad_right;
  int ceil_mode;   /* output sizes round up (ONNX ceil_mode) */
  size_t dilation; /* kernel taps this many pixels apart (0, 1: adjacent); by_im2col only */
} by_window_t;

size_t by_window_out_rows(const by_window_t* w);
size_t by_window_out_cols(const by_window_t* w);

/* dst[r][c] = src[r][c] for a rows x cols block (lds / ldd elements between rows); src NULL
 * writes zeros. On the accelerator: mvins into the scratchpad and mvouts from it (several
 * rows per command); on_cpu: a CPU loop. */
by_status_t by_copy(size_t rows, size_t cols, const by_elem_t* src, size_t lds, by_elem_t* dst,
                    size_t ldd, int on_cpu);

/* The im2col matrix of a convolution over an NHWC image: one row per output pixel (batch,
 * row, column order), kernel_rows * kernel_cols * channels columns in (tap, channel) order,
 * zeros where a tap reads the padding; rows ldd elements apart. On the accelerator it is a
 * sequence of strided copies (by_copy). channels is the image's channel count. */
by_status_t by_im2col(const by_window_t* w, const by_elem_t* input, by_elem_t* dst, size_t ldd,
                      int on_cpu);

/* Max pooling, ONNX semantics: padding never wins (CPU). */
by_status_t by_maxpool(const by_window_t* w, const by_elem_t* input, by_elem_t* output);

/* Average pooling (CPU): each output is act(saturate(accScale(sum, s))) where sum adds the
 * elements inside the image and s = scales[count of them] when scales is given (ONNX
 * count_include_pad = 0, or ceil mode), else `scale`. */
by_status_t by_avgpool(const by_window_t* w, const by_elem_t* input, by_elem_t* output, float scale,
                       const float* scales, int activation);

/* Softmax over rows of cols int8 logits (CPU), through exp_table[d] = round(2^16 exp(-d s))
 * for d = max - x (0..255): out = round(127 * e / sum(e)), ties to even; output scale 1/127. */
by_status_t by_softmax(size_t rows, size_t cols, const by_elem_t* input, by_elem_t* output,
                       const uint32_t* exp_table);

/* Layer normalization over the channels of each of `pixels` rows, without gain and bias (the
 * compiler applies those as a layer of their own or folds them into the next one; docs/
 * compiler.md, "Layer normalization"). Per pixel, with S1 = sum(x) and S2 = sum(x^2) (exact)
 * and V = channels * S2 - S1^2:
 *   scale = V + e > 0 ? (float)(k / sqrt((double)V + e)) : 0      (IEEE double, then float)
 *   D     = -floor((2 * BY_LAYERNORM_ONE * S1 + channels) / (2 * channels))   (-round(64 mean))
 *   out_j = clamp(saturate(accScale(BY_LAYERNORM_ONE * x_j + D, scale), 8), lo, hi)
 * k is channels / (BY_LAYERNORM_ONE * output scale), e is epsilon * channels^2 / input scale^2.
 * Where by_plan_layernorm_on_array holds (one lane, WS, the transposer) the sums and the
 * products run on the array and the host computes scale and D per pixel; elsewhere the CPU does
 * all of it, with the same result. workspace: by_layernorm_workspace_bytes(pixels) bytes
 * (none on the CPU). channels <= 2^16; lo <= hi. */
#define BY_LAYERNORM_ONE 64
size_t by_layernorm_workspace_bytes(size_t pixels);
by_status_t by_layernorm(size_t pixels, size_t channels, const by_elem_t* input, by_elem_t* output,
                         double k, double e, int lo, int hi, void* workspace);

/* out[i] = min(max(in[i], lo), hi) (CPU). */
by_status_t by_clamp(size_t n, const by_elem_t* input, by_elem_t* output, int lo, int hi);

/* The mvout's function table (activations.table; docs/isa.md "Function table"): from the next
 * command on, every output a kernel writes from the accumulator leaves as table[x - BY_ELEM_MIN]
 * instead of x (after its scale, activation and pooling) until by_clear_table (CONFIG_TABLE
 * acts in program order: earlier MVOUTs keep the old table). BY_ERR_UNSUPPORTED without the table
 * hardware (by_has_table). The compiler wraps a convolution or matmul followed by a pointwise
 * function in them: the function then costs nothing. */
by_status_t by_set_table(const by_elem_t* table);
void by_clear_table(void);

/* out[i] = table[in[i] - BY_ELEM_MIN] (CPU): any int8 function of one element, e.g. the
 * compiler's sigmoid or hard-swish at the tensors' scales (256 entries for int8). */
by_status_t by_lookup(size_t n, const by_elem_t* input, by_elem_t* output, const by_elem_t* table);

/* Element-wise product (CPU) of a [batch][pixels][channels] tensor a and b, b of the same shape
 * or (b_per_channel) [batch][channels], one factor per image and channel (a squeeze-and-
 * excitation scale): out = saturate(accScale(a * b, scale)). */
by_status_t by_mul(size_t batch, size_t pixels, size_t channels, const by_elem_t* a,
                   const by_elem_t* b, int b_per_channel, by_elem_t* output, float scale);

/* A flattened NHWC map written in CHW order (per batch element) (CPU). */
by_status_t by_nhwc_to_chw(size_t batch, size_t rows, size_t cols, size_t channels,
                           const by_elem_t* input, by_elem_t* output);

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_LAYERS_H */
