/* The planner (docs/driver.md "Planner"): the rules by which the kernels of brickyard/kernels.h
 * decide how a matmul or a convolution runs: what fits the scratchpad and the accumulator, the
 * tile search, a convolution's path and dataflow, whether the loops fold a thin input into the
 * channels, and the workspace a call needs. Plain freestanding C99 that reads no generated
 * header: the hardware comes in as a by_hw_t and the call as a shape of sizes and flags, so that
 * the driver (by_hw_get: the macros of its config and HW_FEATURES) and the compiler (any config,
 * at run time) run one implementation of every rule, and the plan the compiler records is the
 * one the driver runs. */
#ifndef BRICKYARD_PLAN_H
#define BRICKYARD_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  BY_OK = 0,
  BY_ERR_ARG,         /* a missing operand, a zero or inconsistent size, a tile that does not fit */
  BY_ERR_ADDR,        /* an operand lies beyond the accelerator's 32-bit DRAM addresses */
  BY_ERR_UNSUPPORTED, /* the hardware lacks what the call needs (a dataflow, a pooling size) */
  BY_ERR_WORKSPACE,   /* the call needs a workspace of the size its *_workspace_bytes() says */
  BY_ERR_HW,          /* the accelerator rejected a command (see by_error()) */
} by_status_t;

/* A short English description of a status. */
const char* by_status_string(by_status_t status);

/* WS when the hardware has it, else OS; OS on TensorDash hardware, where OS skips zeros. */
#define BY_DATAFLOW_AUTO (-1)

/* by_conv's paths (docs/driver.md "Convolution paths"). A forced path runs where it can and
 * otherwise the command path; by_conv_plan() tells which runs. */
enum {
  BY_CONV_AUTO = 0, /* the path the rules of docs/driver.md pick for the shape and hardware */
  BY_CONV_COMMANDS, /* the host issues every move and compute (implicit im2col) */
  BY_CONV_LOOP,     /* LOOP_CONV_WS / LOOP_CONV_OS, one loop per tile */
  BY_CONV_MATMUL,   /* 1x1, stride 1, no padding or pooling, dense: by_matmul over the pixels */
};

/* ---- The hardware ---------------------------------------------------------------------- */

/* What the rules read of the hardware: the driver fills it from its config's generated headers
 * and the HW_FEATURES register (by_hw_get, brickyard/kernels.h), the compiler from the config and
 * the ISA table. Tiles double-buffer over halves of the scratchpad and the accumulator. */
typedef struct {
  size_t dim;                   /* DIM: the array's side */
  size_t lanes;                 /* MACs per PE: a K block is DIM x lanes reduction elements */
  size_t sp_rows, acc_rows;     /* scratchpad rows (DIM x lanes elements), accumulator rows */
  size_t max_block_len;         /* MAX_BLOCK_LEN: DIM-column blocks one mvin moves */
  size_t elem_bytes, acc_bytes; /* sizeof(by_elem_t), sizeof(by_acc_t) */
  size_t dma_max_bytes;         /* bytes of one DMA request: a move row is cut into requests */
  size_t dma_request_min_bytes; /* bus bytes a request costs at least (DRAM latency) */
  size_t dma_write_request_min_bytes; /* the same for a write request (max_inflight_writes) */
  size_t dma_round_trip_bytes;        /* bus bytes one DRAM round trip could move (bus x latency) */
  size_t mvout_cols_max;              /* elem_t columns one MVOUT row moves (MAX_ACC_ELEM_COLS) */
  unsigned input_width, acc_width, spatial_output_width; /* bits */
  int ws, os;                                            /* the dataflows the array has */
  int tensordash;                                        /* OS computes skip zero operands */
  int boveda;                                            /* compressed moves */
  int loop_ws, loop_conv_ws, loop_conv_os;               /* the loop unrollers the hardware has */
  /* The convolution loops' depthwise mode (LOOP_CONV_WS / _OS rs1 `depthwise`, docs/isa.md
   * "Depthwise mode"), per loop: one-lane configs have it on both, vector PEs only on the OS loop
   * of TensorDash configs, whose feeder reads A at a column offset (by_plan_loop_depthwise). */
  int loop_conv_ws_depthwise, loop_conv_os_depthwise;
  int transposer; /* CONFIG_EX's transposes (HW_FEATURES TRANSPOSER; one lane, no TensorDash) */
  /* Encodings (brickyard_isa.h): the two dataflows, and the activations the loops apply. */
  int dataflow_ws, dataflow_os;
  int act_none, act_relu;
  /* ISA field limits: LOOP_CONV_WS_CONFIG_*'s sizes, stride and dpad; the rows of one MVIN;
   * CONFIG_ST pooling's size, stride and padding, and its row and column counts. */
  size_t loop_dim_max, loop_stride_max, loop_dpad_max, mvin_rows_max;
  size_t pool_small_max, pool_dim_max;
  size_t loop_dilation_max; /* LOOP_CONV_WS_CONFIG_4's kernel_dilation */
} by_hw_t;

/* Whether a convolution loop has the depthwise mode, from the config's facts (the driver's
 * generated headers, the compiler's config): the loop itself, and one lane, or the OS loop on
 * TensorDash hardware, whose feeder reads a block's DIM channels inside a scratchpad row in
 * whole lane groups (DIM >= lanes). The one rule by_hw_get and the compiler fill by_hw_t's
 * flags with. */
static inline int by_plan_loop_depthwise(int has_loop, size_t dim, size_t lanes, int tensordash,
                                         int os) {
  return has_loop && (lanes == 1 || (tensordash && os && dim >= lanes));
}

/* Size formulas the driver and the rules share. */
static inline size_t by_plan_ceil_div(size_t n, size_t d) {
  return (n + d - 1) / d;
}
/* Lane packing (docs/isa.md "Vector PEs"): K x J becomes ceil(K / lanes) rows of J x lanes. */
static inline size_t by_plan_packed_rows(size_t k, size_t lanes) {
  return by_plan_ceil_div(k, lanes);
}
static inline size_t by_plan_packed_cols(size_t j, size_t lanes) {
  return j * lanes;
}
/* The input pixels a kernel of `taps` taps `dilation` pixels apart spans (0, 1: adjacent). */
static inline size_t by_plan_kernel_extent(size_t taps, size_t dilation) {
  return (taps - 1) * (dilation > 1 ? dilation : 1) + 1;
}
/* Output size of a window sliding over `in` padded by `pads` in all. */
static inline size_t by_plan_out_size(size_t in, size_t pads, size_t kernel, size_t stride) {
  return (in + pads - kernel) / stride + 1;
}
/* Pooled size of `conv` outputs (stride 0: no pooling). */
static inline size_t by_plan_pool_size(size_t conv, size_t size, size_t stride, size_t padding) {
  return stride ? (conv + 2 * padding - size) / stride + 1 : conv;
}

/* ---- Residual add and global average pooling (by_resadd, by_global_average) ------------- */

/* Columns of one chunk: the two kernels sum up to DIM rows of a chunk in the accumulator, in
 * blocks of DIM columns that lie DIM rows apart, and chunks rotate through slots of that many
 * accumulator rows. A chunk is one MVOUT row (mvout_cols_max columns) where the accumulator holds
 * two such slots, else as many whole blocks as half of it holds (one block where it holds one);
 * 0 where it holds not even DIM rows: then the kernels run on the CPU. */
static inline size_t by_plan_eltwise_chunk_cols(const by_hw_t* hw) {
  if (hw->acc_rows >= 2 * hw->mvout_cols_max)
    return hw->mvout_cols_max;
  const size_t half = hw->acc_rows / 2 / hw->dim * hw->dim;
  return half ? half : hw->acc_rows >= hw->dim ? hw->dim : 0;
}

/* ---- Layer normalization (by_layernorm, brickyard/layers.h) ---------------------------- */

/* Whether by_layernorm runs on the array: its per-pixel sums need WS with a transposed B, and
 * the clamp [lo, hi] must be the MVOUT's saturation, with or without ReLU. The sums must be
 * exact: a compute's DIM squares (up to 2^(2 input_width - 2) each) within the spatial output
 * width, a pixel's sums (up to 65536 channels) within the accumulator's 32 bits or more. */
static inline int by_plan_layernorm_on_array(const by_hw_t* hw, int lo, int hi) {
  const int max = (1 << (hw->input_width - 1)) - 1;
  const uint64_t squares = (uint64_t)hw->dim << (2 * hw->input_width - 2);
  return hw->ws && hw->transposer && hw->lanes == 1 && hi == max && (lo == 0 || lo == -max - 1) &&
         hw->acc_width >= 32 && squares < (UINT64_C(1) << (hw->spatial_output_width - 1));
}
/* The workspace by_layernorm needs for `pixels` rows on the array: per pixel a row of DIM
 * sums (later the centering term) and the plain sum (acc_t), and the scale (float); two DIM x
 * DIM constants (elem_t). */
static inline size_t by_plan_layernorm_workspace_bytes(const by_hw_t* hw, size_t pixels) {
  const size_t rows = by_plan_ceil_div(pixels, hw->dim) * hw->dim;
  return rows * ((hw->dim + 1) * hw->acc_bytes + 4) + 2 * hw->dim * hw->dim * hw->elem_bytes;
}

/* ---- Matmul ---------------------------------------------------------------------------- */

/* A matmul C[I x J] = A[I x K] B[K x J] as the planner sees it (by_matmul_t without data). */
typedef struct {
  size_t I, J, K;
  int a_transposed, b_transposed; /* stored transposed (the transposer, or workspace copies) */
  int b_packed;                   /* B already lane-packed (vector PEs) */
  /* Boveda: columns per compressed block of A / B (0: plain): K / J tiles hold whole blocks. */
  size_t a_block_cols, b_block_cols;
  int dataflow;                  /* BY_DATAFLOW_WS, _OS or _AUTO */
  size_t tile_i, tile_j, tile_k; /* forced tiles in blocks (0: automatic) */
} by_matmul_shape_t;

/* The tiling a matmul runs with. k_chunk: reduction elements summed in the array before a
 * result leaves it (one pass, DIM x lanes, in WS; the K tile in OS), which the arithmetic
 * depends on. loop: the tiles run as LOOP_WS commands (one-lane WS, plain operands).
 * transpose_a / transpose_b: the loops move that stored-transposed operand's tiles in as stored
 * and the transposer reads them (LOOP_WS's a_transpose / b_transpose; WS takes one of the two,
 * A first); a transposed operand without it is copied into the workspace. keep: the loops keep
 * one operand in the scratchpad (LOOP_WS's a_spad_id / b_spad_id) so that it is read once, with
 * one K tile and plain operands: BY_MATMUL_KEEP_A runs row tile by row tile and keeps each A tile
 * over its column tiles, BY_MATMUL_KEEP_B column tile by column tile and keeps each B tile over
 * its row tiles; the one that moves fewer blocks. transposed: one row of C (I = 1) whose B is
 * stored transposed (J x K, as ONNX stores a dense layer's weights) runs, on the one-lane WS
 * loops, as its transpose C^T = B^T A^T (by_plan_matmul_transposed): B^T streams as the operand A,
 * DIM of its rows a compute, and A^T (K x 1) is the stationary one, with no copy of either. One
 * image's dense layer otherwise loads every DIM x DIM block of its weights into the array (DIM
 * beats) for one compute beat. Every other field then describes the transpose. */
typedef enum { BY_MATMUL_KEEP_NONE, BY_MATMUL_KEEP_A, BY_MATMUL_KEEP_B } by_matmul_keep_t;
typedef struct {
  int dataflow;
  size_t tile_i, tile_j, tile_k;
  size_t k_chunk;
  int loop;
  int transpose_a, transpose_b;
  by_matmul_keep_t keep;
  int transposed;
} by_matmul_plan_t;

/* The dataflow a request gets: the requested one if the array has it (else BY_ERR_UNSUPPORTED;
 * BY_ERR_ARG for no dataflow at all); AUTO: WS, or OS on TensorDash hardware and OS-only arrays. */
by_status_t by_plan_dataflow(const by_hw_t* hw, int requested, int* dataflow);
/* Whether tiles of ti x tk blocks of A, tk x tj of B (half the scratchpad) and ti x tj of C (half
 * the accumulator) fit. */
int by_plan_matmul_tiles_fit(const by_hw_t* hw, size_t ti, size_t tj, size_t tk);
/* The plan (forced tiles clamped to the matrix; automatic ones: the pair (tile_i, tile_j) that
 * moves the fewest blocks of A and B, kept operands counted once, and where the loops keep
 * operands also loads the fewest weight blocks into the array; each with the largest tile_k that
 * fits). BY_ERR_ARG for a zero size or tiles that do not fit. */
by_status_t by_plan_matmul(const by_hw_t* hw, const by_matmul_shape_t* s, by_matmul_plan_t* plan);
/* The matmul a transposed plan runs: C^T[J x 1] = B^T[J x K] A^T[K x 1], both operands as
 * stored (the forced tiles are the transpose's). */
void by_plan_matmul_transposed(const by_matmul_shape_t* s, by_matmul_shape_t* t);
/* How many times the plan's tiles read A and B from DRAM: A once per column of C tiles and B once
 * per row of them, a kept operand once (a transposed plan's: its B^T as B, its A^T as A). */
void by_plan_matmul_reads(const by_hw_t* hw, const by_matmul_shape_t* s, const by_matmul_plan_t* p,
                          size_t* a_reads, size_t* b_reads);
/* Whether by_matmul packs B into the workspace (vector PEs, B not packed by the caller), and
 * the workspace in bytes (transposed A, transposed or packed B). */
int by_plan_matmul_packs_b(const by_hw_t* hw, const by_matmul_shape_t* s);
size_t by_plan_matmul_workspace_bytes(const by_hw_t* hw, const by_matmul_shape_t* s);

/* ---- Convolution ----------------------------------------------------------------------- */

/* A convolution as the planner sees it (by_conv_t without data; strides and pads resolved). */
typedef struct {
  size_t batch, in_rows, in_cols, in_ch, out_ch; /* depthwise: out_ch = in_ch */
  size_t kernel_rows, kernel_cols, stride, stride_cols;
  size_t dilation; /* kernel taps this many input pixels apart (0, 1: adjacent) */
  size_t pad_top, pad_left, pad_bottom, pad_right;
  size_t pool_size, pool_stride, pool_padding; /* pool_stride 0: no pooling */
  int depthwise;
  int bias;           /* a bias is loaded (the loops' tiles count its bytes) */
  int activation;     /* BY_ACT_* (the loops apply none and ReLU) */
  int weights_packed; /* lane-packed by the caller: per tap, per kernel row where it folds */
  /* Boveda-compressed weights: columns per compressed block (0: plain weights); out-channel
   * tiles hold whole blocks. */
  size_t weights_block_cols;
  /* Boveda-compressed activation tensors (brickyard/boveda.h) as the input / the output: only
   * the loops move them, in tiles of whole channel groups. */
  int input_compressed, output_compressed;
  int path;                                       /* BY_CONV_* */
  int dataflow;                                   /* the loop's: BY_DATAFLOW_WS, _OS or _AUTO */
  size_t tile_rows, tile_och, tile_k, tile_batch; /* forced tiles (0: automatic), by_conv_t's */
} by_conv_shape_t;

struct by_conv; /* the driver's by_conv_t (brickyard/kernels.h) */

/* The workspace by_conv needs: depthwise, the diagonal stripes of the loops' depthwise mode
 * (loop_depthwise: per tap ceil(DIM / lanes) lane-packed rows of in_ch x lanes elements, the
 * whole layer's channels), else a lane-packed KB x KB diagonal block per KB channels and tap
 * (KB = DIM x lanes; the command path, dense loops); with vector PEs and weights not packed per tap
 * by the caller (or packed per tap where the loops fold the columns), the packed weights, at its
 * start; then, 64-byte aligned, a folded convolution's input with its columns padded. */
typedef struct {
  size_t bytes;
  int packs_weights;          /* by_conv packs the weights into the workspace */
  size_t padded_input_offset; /* in elements */
  size_t padded_input_elems;  /* 0: no padded copy (no folding, or no column padding) */
} by_conv_workspace_t;

/* A tile: images, (pooled) output rows, out-channel blocks and K blocks ((tap, channel block)
 * pairs on the command path, input-channel blocks of DIM x lanes channels on the loops; 1 on a
 * depthwise loop, whose channels are its out-channel blocks' own). */
typedef struct {
  size_t batch, rows, tn, tk;
} by_conv_tiles_t;

/* The geometry every rule and the driver's command streams share. */
typedef struct {
  const struct by_conv* c; /* the planner sets NULL; the driver's kernels, the convolution */
  size_t orows, ocols, prows, pcols;
  size_t psize, pstride, ppad; /* 1, 1, 0 without pooling */
  size_t dilation;             /* the kernel's (at least 1) */
  size_t taps, cblocks;        /* K blocks: taps x cblocks (dense) or taps (depthwise) */
  size_t kblocks, nblocks;     /* per pass */
  /* The loops' view of the input. With `folded` (thin inputs, by_plan_conv_folds) the kernel
   * columns fold into the channels: a loop pixel is kernel_cols real pixels, loop_ch =
   * kernel_cols x in_ch contiguous elements of an NHWC row starting at a column of the copy
   * padded to loop_cols columns, and each kernel row is one tap (loop_kcols 1, no column
   * padding left). Else the convolution's own sizes. A loop's input- and out-channel blocks:
   * a depthwise loop has one K block (each channel sums its own taps) and, in the depthwise mode
   * (loop_depthwise), the convolution's DIM-channel blocks as its out-channel blocks (a tile:
   * a run of them), else a pass of KB = DIM x lanes channels (lanes blocks). */
  int folded;
  size_t loop_taps, loop_kcols, loop_ch, loop_cols, loop_pad_left, loop_pad_right;
  size_t loop_kblocks, loop_nblocks;
  /* A depthwise convolution whose loops run in the hardware's depthwise mode (the plan's path
   * is the loop, of a dataflow that has it): by_plan_conv_geom decides, with the tiles, which
   * the plan then takes (the search runs once: by_conv plans on the host at every call); the
   * workspace follows. */
  int loop_depthwise;
  by_conv_tiles_t loop_depthwise_tiles;
  by_conv_workspace_t ws;
} by_conv_geom_t;

/* What a convolution's loops keep in the scratchpad from one loop to the next (LOOP_CONV_WS's
 * a_spad_id / b_spad_id, docs/driver.md "LOOP_CONV_WS"): nothing; a band's input windows over
 * its out-channel tiles (one or two input-channel tiles, each window in a half of its own;
 * several out-channel tiles); or the weights over the bands (one tile of every channel, several
 * bands). Depthwise loops keep nothing. */
enum { BY_CONV_KEEP_NONE = 0, BY_CONV_KEEP_INPUT = 1, BY_CONV_KEEP_WEIGHTS = 2 };
int by_plan_conv_loop_reuse(int depthwise, size_t batch, const by_conv_geom_t* g,
                            const by_conv_tiles_t* t);

/* How by_conv runs (path: BY_CONV_COMMANDS, _LOOP or _MATMUL; loop: path == BY_CONV_LOOP; the
 * dataflow: BY_DATAFLOW_OS for LOOP_CONV_OS, else WS), its tiles (see by_conv_t's tile fields;
 * tile_batch is 1 off the loop path; the matmul path: tile_rows in blocks of DIM pixels,
 * tile_och in J blocks, tile_k in K blocks) and the workspace it needs. */
typedef struct {
  int path;
  int loop;
  int dataflow;
  int folded; /* the loop folds the kernel columns into the channels (docs/driver.md) */
  /* Depthwise loops in the hardware's depthwise mode over diagonal stripes (tile_och: channel
   * blocks of DIM per loop); 0: dense loops over diagonal blocks, one pass of DIM x lanes
   * channels each (by_conv_geom_t.loop_depthwise). */
  int depthwise_mode;
  size_t tile_batch, tile_rows, tile_och, tile_k;
  size_t workspace_bytes; /* by_conv_workspace_bytes() */
} by_conv_plan_t;

/* BY_ERR_ARG for a shape no convolution has: a zero size or stride, depthwise with out_ch !=
 * in_ch, an unknown path, a (dilated) kernel larger than the padded input, a pooling window
 * larger than the padded output. The other functions take only shapes that pass. */
by_status_t by_plan_conv_check(const by_conv_shape_t* s);
/* The geometry, the loops' view of the input and the workspace's layout. */
void by_plan_conv_geom(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_geom_t* g);
/* Whether the loops fold the kernel columns into the channels (docs/driver.md "Thin inputs"). */
int by_plan_conv_folds(const by_hw_t* hw, const by_conv_shape_t* s);
/* Whether CONFIG_ST pools a convolution of conv_cols output columns into pool_cols. */
int by_plan_pool_fits(const by_hw_t* hw, size_t size, size_t stride, size_t padding,
                      size_t conv_cols, size_t pool_cols);
/* Whether a command-path tile of `rows` (pooled) output rows, tn out-channel blocks and tk K
 * blocks fits: C in half the accumulator, its A and B blocks in half the scratchpad. */
int by_plan_conv_tiles_fit(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                           size_t rows, size_t tn, size_t tk);
/* The geometry's workspace (a shape that fails by_plan_conv_check: its layout without the
 * depthwise mode, which needs the plan). */
void by_plan_conv_workspace(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_workspace_t* w);
/* The plan by_conv runs (after by_plan_conv_check): BY_ERR_UNSUPPORTED for a pooling CONFIG_ST
 * cannot do, a dataflow without a path, or a convolution no loop holds on vector PEs or OS;
 * BY_ERR_ARG for forced tiles that do not fit. */
by_status_t by_plan_conv(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_plan_t* plan);
/* The DRAM traffic of a loop plan by the planner's model, which its tile choice minimises: the
 * loops' reads or writes, whichever is more, in DMA request bytes of the raw operands, plus a
 * round trip per loop; 0 for a plan that is not a loop. For comparing plans of one shape. */
uint64_t by_plan_conv_loop_bytes(const by_hw_t* hw, const by_conv_shape_t* s,
                                 const by_conv_plan_t* plan);
/* The DRAM bytes a loop plan moves (all 0 for a plan that is not a loop), by operand, band by
 * band: the input windows (the image rows and columns they cover, no padding; with a folded
 * input also its padded copy written and read), the weights (read weight_loads times), the
 * broadcast bias rows (one per output row and out-channel block) and the output. Unlike
 * by_plan_conv_loop_bytes (the tile choice's cost: request bytes, every tile a full one) these
 * are the bytes the DMA moves; the compiler's estimate (plan.json est_dram_bytes). */
typedef struct {
  uint64_t input, weights, bias, output, weight_loads;
} by_conv_traffic_t;
void by_plan_conv_loop_traffic(const by_hw_t* hw, const by_conv_shape_t* s,
                               const by_conv_plan_t* plan, by_conv_traffic_t* traffic);
/* by_plan_conv of a shape that passed by_plan_conv_check, with its geometry. */
by_status_t by_plan_conv_checked(const by_hw_t* hw, const by_conv_shape_t* s,
                                 const by_conv_geom_t* g, by_conv_plan_t* plan);

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_PLAN_H */
