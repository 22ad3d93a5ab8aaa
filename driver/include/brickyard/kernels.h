/* Kernels on the accelerator: tiled matmul, convolution (dense and depthwise, with fused
 * max-pooling), residual add and global average pooling, with tile sizes chosen from the
 * generated parameters (docs/driver.md "Tiling"). Each kernel checks its arguments, issues its
 * commands, fences (or with overlap, below, leaves that to the next), and reports a command the
 * accelerator rejected. The CPU references in
 * brickyard/cpu.h compute the same results bit for bit (docs/arithmetic.md); a kernel with
 * `on_cpu` set runs that reference instead (the CPU fallback). */
#ifndef BRICKYARD_KERNELS_H
#define BRICKYARD_KERNELS_H

#include "brickyard/plan.h"
#include "brickyard_params.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The hardware as the planner takes it (brickyard/plan.h): this config's parameters, with the
 * loop unrollers HW_FEATURES reports (so that one program also runs on the same config without
 * them). Reads the HW_FEATURES register on configs with loops. */
void by_hw_get(by_hw_t* hw);

/* ---- Overlapped kernels (docs/driver.md "Overlapped kernels") --------------------------- */

/* Off (the default), every kernel fences at its end. On, a kernel returns once its commands are
 * issued, so that the host checks and plans the next kernel while the accelerator finishes this
 * one. Whatever needs the results waits for them first (a drain: fence, then the refusals): the
 * next kernel before its first command, every CPU kernel and CPU fallback before it reads, and
 * by_drain(). Only the outermost kernel returns early: kernels a kernel calls fence as ever.
 * The refusals of work that returned early are reported by the drain that waits for it: to the
 * drain hook if one is set, else as BY_ERR_HW of by_drain() or of the next kernel's end. */
void by_set_overlap(int on);
/* Called at every drain, after the fence, with BY_ERR_HW if the work it waited for had
 * refusals, else BY_OK (also when nothing was left to wait for). A program's per-layer
 * counters live here: the work before the drain is done, the next has not been issued. */
typedef void (*by_drain_hook_t)(by_status_t drained, void* ctx);
void by_set_drain_hook(by_drain_hook_t hook, void* ctx);
/* Waits for every kernel issued so far; BY_ERR_HW if one returned early and had refusals (and
 * no hook took them). */
by_status_t by_drain(void);

struct by_boveda_matrix; /* a matrix stored Boveda-compressed (brickyard/boveda.h) */
struct by_boveda_tensor; /* an activation tensor stored so (brickyard/boveda.h) */

/* ---- Matmul: C = act(scale(A * B + D)) ------------------------------------------------- */

typedef struct {
  size_t I, J, K;     /* C is I x J, A is I x K, B is K x J */
  const by_elem_t* A; /* row-major, lda elements between rows */
  size_t lda;
  int a_transposed; /* A is stored transposed (K x I); needs a workspace */
  const by_elem_t* B;
  size_t ldb;
  int b_transposed; /* B is stored transposed (J x K); needs a workspace */
  const void* D;    /* bias: by_acc_t (or by_elem_t with d_elem), I x J; NULL: none */
  size_t ldd;
  int d_elem;
  int repeating_bias; /* D is one row added to every row of C */
  void* C;            /* by_elem_t, or raw by_acc_t with c_full */
  size_t ldc;
  int c_full;
  int activation; /* BY_ACT_NONE / BY_ACT_RELU, after scaling and saturation */
  float scale;    /* accumulator scale on the way out (1.0f: identity) */
  int dataflow;   /* BY_DATAFLOW_WS, _OS or _AUTO */
  /* Tile sizes in blocks (DIM; K: DIM x lanes); 0: automatic. Where the plan is transposed (one
   * row of C, B stored transposed: brickyard/plan.h) they are the transpose's (J x 1 x K). */
  size_t tile_i, tile_j, tile_k;
  void* workspace; /* transposed operands are copied here (by_matmul_workspace_bytes) */
  size_t workspace_bytes;
  int on_cpu; /* run the CPU reference instead */
  /* Boveda: A (I x K) and/or B (K x J) read from compressed matrices (then A / B and their
   * strides are not used): one compressed mvin per block. The K tile is then a multiple of
   * A's block columns and the J tile of B's, or the whole dimension. No transposes, no CPU
   * fallback (the driver has no software decoder). BY_ERR_UNSUPPORTED without Boveda. */
  const struct by_boveda_matrix* A_boveda;
  const struct by_boveda_matrix* B_boveda;
  /* Vector PEs (BY_LANES > 1, docs/driver.md "Vector PEs"): B is already lane-packed
   * (by_pack_b): by_packed_b_rows(K) rows of by_packed_b_cols(J) elements, ldb elements
   * between rows; not with b_transposed or B_boveda (BY_ERR_ARG). Unset, by_matmul packs B (or
   * B stored transposed) into the workspace on every call. With one lane packing is the
   * identity: a packed B is the plain B and the flag changes nothing. */
  int b_packed;
  /* TensorDash (BY_TENSORDASH, docs/tensordash.md): which operand's zeros an OS matmul skips,
   * BY_TD_SCHEDULE_A (the default: zero), BY_TD_SCHEDULE_B or BY_TD_OFF (brickyard/isa.h).
   * The results are the same. BY_TD_SCHEDULE_B without TensorDash is BY_ERR_UNSUPPORTED; the
   * others are ignored there. */
  int tensordash;
} by_matmul_t;

/* Defaults: everything zero, scale 1, dataflow automatic. */
void by_matmul_init(by_matmul_t* m);
/* The workspace by_matmul needs, in bytes: transposed A (I x K elements), transposed B (K x J)
 * with one lane; with vector PEs the packed B (by_packed_b_rows(K) x by_packed_b_cols(J)) unless
 * b_packed. */
size_t by_matmul_workspace_bytes(const by_matmul_t* m);
/* The tiling by_matmul runs with (by_plan_matmul, brickyard/plan.h). */
by_status_t by_matmul_plan(const by_matmul_t* m, by_matmul_plan_t* plan);
by_status_t by_matmul(const by_matmul_t* m);

/* Lane packing of B for vector PEs (docs/isa.md "Vector PEs"): a K x J matrix B becomes
 * ceil(K / BY_LANES) rows of J * BY_LANES elements, packed[t][j*L + l] = B[t*L + l][j], with
 * zeros where t*L + l >= K. Pack weights once (as a compiler lays them out) and pass them with
 * b_packed; by_matmul's tiles of the packed matrix are exactly its scratchpad tiles. With one
 * lane the packed matrix is B. */
size_t by_packed_b_rows(size_t K);
size_t by_packed_b_cols(size_t J);
/* B is K x J row-major (ldb elements between rows), or stored transposed (J x K, ldb between
 * its rows) with b_transposed; packed gets by_packed_b_rows(K) rows of by_packed_b_cols(J)
 * elements, ldp (>= by_packed_b_cols(J)) elements apart; the elements of a row past
 * by_packed_b_cols(J) are left alone. The CPU does the copy: fence before packing into memory
 * that commands in flight still read. BY_ERR_ARG for a missing matrix, a zero size or a short
 * stride. */
by_status_t by_pack_b(size_t K, size_t J, const by_elem_t* B, size_t ldb, int b_transposed,
                      by_elem_t* packed, size_t ldp);

/* ---- Convolution ----------------------------------------------------------------------- */

typedef struct by_conv {
  size_t batch, in_rows, in_cols, in_ch, out_ch; /* depthwise: out_ch = in_ch */
  size_t kernel_rows, kernel_cols, stride, padding;
  /* Unequal strides and padding (ONNX pads top, left, bottom, right): stride_cols 0 means
   * `stride`; with explicit_pads the four pads replace `padding`. */
  size_t stride_cols;
  int explicit_pads;
  size_t pad_top, pad_left, pad_bottom, pad_right;
  /* Kernel dilation: the taps `dilation` input pixels apart in both directions (0, 1: adjacent);
   * output pixel (y, x), tap (kr, kc) reads input (y*stride + kr*dilation - pad_top, ...). */
  size_t dilation;
  int depthwise;
  /* NHWC input [batch][in_rows][in_cols][in_ch]. Weights: dense [kernel_rows][kernel_cols]
   * [in_ch][out_ch] (a (kr*kc*in_ch) x out_ch matrix, Gemmini's layout), or with
   * weights_packed lane-packed per tap (by_pack_conv_weights); depthwise
   * [in_ch][kernel_rows][kernel_cols], or with weights_packed already the diagonal stripes of
   * the loops' depthwise mode (docs/isa.md "Depthwise mode": per tap ceil(DIM / lanes) packed rows
   * of in_ch x lanes elements; by_plan_conv's depthwise_mode must hold, else BY_ERR_ARG). Bias
   * [out_ch] or NULL. Output NHWC [batch][pool_rows][pool_cols][out_ch] (pooled sizes; the conv
   * sizes without pooling). */
  const by_elem_t* input;
  const by_elem_t* weights;
  const by_acc_t* bias;
  by_elem_t* output;
  int activation;
  float scale;
  size_t pool_size, pool_stride, pool_padding; /* pool_stride 0: no pooling */
  /* Forced tiles (0: automatic): output rows (pooled rows with pooling), out-channel blocks,
   * and K blocks: (kernel tap, input-channel block) pairs on the command path, input-channel
   * blocks through LOOP_CONV_WS (each loop takes every tap); tile_batch: images per loop (the
   * command path takes one). Tiles LOOP_CONV_WS cannot hold run on the command path. The
   * matmul path reads tile_rows as blocks of DIM pixels, tile_och as J and tile_k as K blocks;
   * the automatic path takes it only when no tile is forced. Depthwise loops: tile_och is the
   * DIM-channel blocks of a loop in the loops' depthwise mode (a pass of DIM x lanes channels
   * otherwise); tile_k is not read. */
  size_t tile_rows, tile_och, tile_k, tile_batch;
  /* Depthwise: diagonal stripes (the loops' depthwise mode) or blocks; vector PEs without
   * weights_packed: the packed weights (by_conv_workspace_bytes). */
  void* workspace;
  size_t workspace_bytes;
  int on_cpu;
  /* Boveda (dense convolutions, one lane): the weights read from a compressed matrix instead of
   * `weights`: by_conv_boveda_rows() rows x out_ch, whose DIM-row bands are the (kernel tap,
   * input-channel block) pairs in `weights`' order, the channels of a tap's last block padded
   * with zero rows. Out-channel tiles then hold whole column blocks of it (or all of out_ch).
   * No CPU fallback (the driver has no software decoder). */
  const struct by_boveda_matrix* weights_boveda;
  /* Boveda: the input read from / the output written to a compressed activation tensor
   * (by_boveda_tensor_t, brickyard/boveda.h: one block per image row and channel group) instead
   * of `input` / `output`, which are then not used. Only the convolution loops move them, so
   * BY_ERR_UNSUPPORTED where no loop runs the convolution with tiles of whole channel groups:
   * depthwise, folded (thin) inputs, a compressed output with pooling, a compressed input whose
   * windows do not cover whole rows (e.g. a 1x1 stride-2 kernel over an even width), the CPU. */
  const struct by_boveda_tensor* input_boveda;
  struct by_boveda_tensor* output_boveda;
  /* How it runs (BY_CONV_*, below): BY_CONV_AUTO (0, the default) or a path forced for A/B
   * comparisons. */
  int path;
  /* The loop's dataflow: BY_DATAFLOW_WS (LOOP_CONV_WS), _OS (LOOP_CONV_OS, where TensorDash
   * skips zero products) or BY_DATAFLOW_AUTO (-1; by_conv_init's default): OS on TensorDash
   * hardware, else WS (docs/driver.md "Convolution paths"). The command and matmul paths are
   * WS. The results are the same. */
  int dataflow;
  /* TensorDash on the OS loop: BY_TD_SCHEDULE_A (0: the input's zeros are skipped),
   * BY_TD_SCHEDULE_B (the weights') or BY_TD_OFF, as by_matmul_t.tensordash. */
  int tensordash;
  /* Vector PEs (BY_LANES > 1): `weights` are already lane-packed as the loops read them
   * (by_pack_conv_weights): per tap, or where the loops fold the kernel columns (by_conv_folds)
   * per kernel row, i.e. kernel_rows taps of kernel_cols x in_ch channels (the same dense bytes).
   * Unset, by_conv packs them into the workspace on every call. With one lane packing is the
   * identity and the flag changes nothing. Depthwise (any lanes): the weights are the depthwise
   * mode's diagonal stripes (above), which by_conv otherwise builds in the workspace. */
  int weights_packed;
} by_conv_t;

/* Lane packing of dense convolution weights for vector PEs (docs/isa.md "Vector PEs"): each
 * kernel tap's in_ch x out_ch matrix is lane-packed as by_pack_b packs B, so that the packed
 * weights are taps x by_packed_b_rows(in_ch) rows of by_packed_b_cols(out_ch) elements,
 * packed[(tap * by_packed_b_rows(in_ch) + p) * out_ch * L + o * L + l] = W[tap][p*L + l][o]
 * (zero where p*L + l >= in_ch). With one lane the packed weights are the weights. */
size_t by_conv_packed_weight_elems(size_t taps, size_t in_ch, size_t out_ch);
by_status_t by_pack_conv_weights(size_t taps, size_t in_ch, size_t out_ch, const by_elem_t* weights,
                                 by_elem_t* packed);

/* Whether the convolution loops fold the kernel columns into the channels (a thin input whose
 * kernel_cols x in_ch channels take fewer DIM x lanes blocks than tap by tap; docs/driver.md
 * "Thin inputs"). */
int by_conv_folds(const by_conv_t* c);

/* Rows of a convolution's compressed weight matrix: taps x ceil(in_ch / DIM) x DIM. */
size_t by_conv_boveda_rows(const by_conv_t* c);

void by_conv_init(by_conv_t* c);
/* The effective column stride and top / left padding (from the fields above). */
size_t by_conv_stride_cols(const by_conv_t* c);
size_t by_conv_pad_top(const by_conv_t* c);
size_t by_conv_pad_left(const by_conv_t* c);
size_t by_conv_out_rows(const by_conv_t* c); /* before pooling */
size_t by_conv_out_cols(const by_conv_t* c);
size_t by_conv_pool_rows(const by_conv_t* c); /* after pooling (= out rows without it) */
size_t by_conv_pool_cols(const by_conv_t* c);
/* In bytes: depthwise, the diagonal stripes where the loops run in their depthwise mode (per tap
 * ceil(DIM / lanes) lane-packed rows of in_ch x lanes elements), else a KB x KB block of elements
 * (KB = DIM x lanes, lane-packed) per KB channels and tap; the layout follows the plan (its
 * forced path and tiles included); with vector PEs and unpacked dense weights, the packed weights;
 * a folded convolution's column-padded input (by_plan_conv_workspace, brickyard/plan.h); else 0. */
size_t by_conv_workspace_bytes(const by_conv_t* c);
/* The plan by_conv would run with (by_plan_conv, brickyard/plan.h; after its argument and
 * hardware checks, then the workspace's; on_cpu: path 0 and no tiles, with the workspace it
 * checks). */
by_status_t by_conv_plan(const by_conv_t* c, by_conv_plan_t* plan);
by_status_t by_conv(const by_conv_t* c);

/* ---- Element-wise ---------------------------------------------------------------------- */

/* C = act(saturate(accScale(A + B, scale))), all I x J by_elem_t matrices with their own
 * row strides (C may be A or B). */
by_status_t by_resadd(size_t I, size_t J, const by_elem_t* A, size_t lda, const by_elem_t* B,
                      size_t ldb, by_elem_t* C, size_t ldc, float scale, int activation,
                      int on_cpu);

/* Global average pooling: input NHWC [batch][pixels][channels] -> output [batch][channels],
 * each the sum over pixels scaled by 1/pixels (accScale: round half to even). */
by_status_t by_global_average(const by_elem_t* input, by_elem_t* output, size_t batch,
                              size_t pixels, size_t channels, int on_cpu);

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_KERNELS_H */
