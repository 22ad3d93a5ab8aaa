/* Layer operations (brickyard/layers.h): copies and im2col through the scratchpad, and CPU
 * layers. A copy moves rows into the scratchpad with a strided mvin and out with a strided
 * mvout; pieces rotate through slots of the scratchpad so that the mvin of one overlaps the
 * mvout of the one before (the reservation station orders them). */
#include "brickyard/layers.h"

#include "brickyard/cpu.h"
#include "brickyard_isa.h"
#include "tile.h"

#define ROW_ELEMS ((size_t)BY_SP_ROW_ELEMS)
#define GROUP_COLS ((size_t)BY_MAX_BLOCK_LEN * ROW_ELEMS) /* columns one move can carry */
#define SLOT_ROWS ((size_t)BY_MAX_BLOCK_LEN * BY_DIM)     /* a multi-block piece's rows */
#define SLOTS ((size_t)BY_SP_ROWS / SLOT_ROWS)
#define ROWS_MAX ((size_t)BY_MVIN_RS2_ROWS_MASK)

static size_t window_out(size_t in, size_t pa, size_t pb, size_t k, size_t s, int ceil_mode) {
  if (in + pa + pb < k)
    return 0;
  const size_t span = in + pa + pb - k;
  size_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (out - 1) * s >= in + pa) /* the last window must start in the image */
    --out;
  return out;
}

static size_t window_dilation(const by_window_t* w) {
  return w->dilation > 1 ? w->dilation : 1;
}

size_t by_window_out_rows(const by_window_t* w) {
  return window_out(w->in_rows, w->pad_top, w->pad_bottom,
                    by_plan_kernel_extent(w->kernel_rows, w->dilation), w->stride_rows,
                    w->ceil_mode);
}
size_t by_window_out_cols(const by_window_t* w) {
  return window_out(w->in_cols, w->pad_left, w->pad_right,
                    by_plan_kernel_extent(w->kernel_cols, w->dilation), w->stride_cols,
                    w->ceil_mode);
}

static int window_ok(const by_window_t* w) {
  return w && w->batch && w->in_rows && w->in_cols && w->channels && w->kernel_rows &&
         w->kernel_cols && w->stride_rows && w->stride_cols && by_window_out_rows(w) &&
         by_window_out_cols(w);
}

/* The pools take adjacent taps only. */
static int pool_window_ok(const by_window_t* w) {
  return window_ok(w) && window_dilation(w) == 1;
}

/* ---- copies ------------------------------------------------------------------------------ */

typedef struct {
  size_t piece; /* pieces issued: selects the scratchpad slot */
} copier_t;

/* Issues one rows x cols copy; channel 0's DRAM stride must be the source stride and CONFIG_ST's
 * the destination stride. Pieces of one column group take up to half the scratchpad of rows;
 * wider ones DIM rows of up to MAX_BLOCK_LEN column blocks (as MVOUT reads them). */
static void issue_copy(copier_t* cp, size_t rows, size_t cols, const by_elem_t* src, size_t lds,
                       by_elem_t* dst, size_t ldd) {
  if (cols <= ROW_ELEMS) {
    size_t step = BY_SP_HALF < ROWS_MAX ? BY_SP_HALF : ROWS_MAX;
    for (size_t r = 0; r < rows; r += step) {
      const uint32_t n = (uint32_t)(rows - r < step ? rows - r : step);
      const uint32_t local = (uint32_t)((cp->piece++ & 1u) * BY_SP_HALF);
      by_mvin(0, src ? src + r * lds : 0, by_sp_addr(local), n, (uint32_t)cols);
      by_mvout(dst + r * ldd, by_sp_addr(local), n, (uint32_t)cols);
    }
    return;
  }
  for (size_t r = 0; r < rows; r += BY_DIM)
    for (size_t c = 0; c < cols; c += GROUP_COLS) {
      const uint32_t n = (uint32_t)(rows - r < BY_DIM ? rows - r : BY_DIM);
      const uint32_t m = (uint32_t)(cols - c < GROUP_COLS ? cols - c : GROUP_COLS);
      const uint32_t local = (uint32_t)((cp->piece++ % SLOTS) * SLOT_ROWS);
      by_mvin(0, src ? src + r * lds + c : 0, by_sp_addr(local), n, m);
      by_mvout(dst + r * ldd + c, by_sp_addr(local), n, m);
    }
}

static by_status_t check_strides(size_t lds, size_t ldd) {
  /* DRAM strides are 32-bit fields (CONFIG_LD / CONFIG_ST). */
  if ((uint64_t)lds * sizeof(by_elem_t) >= (UINT64_C(1) << 32) ||
      (uint64_t)ldd * sizeof(by_elem_t) >= (UINT64_C(1) << 32))
    return BY_ERR_ARG;
  return BY_OK;
}

by_status_t by_copy(size_t rows, size_t cols, const by_elem_t* src, size_t lds, by_elem_t* dst,
                    size_t ldd, int on_cpu) {
  if (!dst || rows == 0 || cols == 0 || ldd < cols || (src && lds < cols))
    return BY_ERR_ARG;
  if ((src && !by_dram_reachable(src, ((rows - 1) * lds + cols) * sizeof(by_elem_t))) ||
      !by_dram_reachable(dst, ((rows - 1) * ldd + cols) * sizeof(by_elem_t)))
    return BY_ERR_ADDR;
  if (on_cpu) {
    const by_status_t s = by_drain();
    if (s != BY_OK)
      return s;
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c)
        dst[r * ldd + c] = src ? src[r * lds + c] : 0;
    return BY_OK;
  }
  by_status_t s = check_strides(src ? lds : 0, ldd);
  if (s != BY_OK)
    return s;
  by_kernel_begin();
  by_config_ld(0, src ? lds * sizeof(by_elem_t) : 0, 0, 0);
  by_config_st((uint32_t)(ldd * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, 0);
  copier_t cp = {0};
  issue_copy(&cp, rows, cols, src, lds, dst, ldd);
  return by_kernel_end();
}

/* ---- im2col ------------------------------------------------------------------------------ */

by_status_t by_im2col(const by_window_t* w, const by_elem_t* input, by_elem_t* dst, size_t ldd,
                      int on_cpu) {
  if (!window_ok(w) || !input || !dst)
    return BY_ERR_ARG;
  const size_t oh = by_window_out_rows(w), ow = by_window_out_cols(w), ch = w->channels;
  const size_t taps = w->kernel_rows * w->kernel_cols, k = taps * ch, d = window_dilation(w);
  if (ldd < k)
    return BY_ERR_ARG;
  if (!by_dram_reachable(input, w->batch * w->in_rows * w->in_cols * ch * sizeof(by_elem_t)) ||
      !by_dram_reachable(dst, ((w->batch * oh * ow - 1) * ldd + k) * sizeof(by_elem_t)))
    return BY_ERR_ADDR;
  const size_t lds = w->stride_cols * ch; /* between the pixels one output row reads */
  by_status_t s = check_strides(lds, ldd);
  if (s != BY_OK)
    return s;
  if (on_cpu) {
    if ((s = by_drain()) != BY_OK)
      return s;
  } else {
    by_kernel_begin();
    by_config_ld(0, lds * sizeof(by_elem_t), 0, 0);
    by_config_st((uint32_t)(ldd * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, 0);
  }
  copier_t cp = {0};
  for (size_t b = 0; b < w->batch; ++b)
    for (size_t oy = 0; oy < oh; ++oy)
      for (size_t t = 0; t < taps; ++t) {
        /* The tap's row and column in the window (taps `dilation` pixels apart). */
        const size_t ky = t / w->kernel_cols * d, kx = t % w->kernel_cols * d;
        const long iy = (long)(oy * w->stride_rows + ky) - (long)w->pad_top;
        /* Output columns that read inside the image: [xlo, xhi). */
        size_t xlo = 0, xhi = 0;
        if (iy >= 0 && iy < (long)w->in_rows) {
          xlo = w->pad_left > kx ? (w->pad_left - kx + w->stride_cols - 1) / w->stride_cols : 0;
          const long last = (long)w->in_cols - 1 + (long)w->pad_left - (long)kx;
          xhi = last < 0 ? 0 : (size_t)last / w->stride_cols + 1;
          if (xhi > ow)
            xhi = ow;
          if (xlo > xhi)
            xlo = xhi;
        }
        by_elem_t* row = dst + ((b * oh + oy) * ow) * ldd + t * ch;
        const by_elem_t* src = input + ((b * w->in_rows + (size_t)(iy < 0 ? 0 : iy)) * w->in_cols +
                                        (xlo * w->stride_cols + kx - w->pad_left)) *
                                           ch;
        if (on_cpu) {
          for (size_t x = 0; x < ow; ++x)
            for (size_t c = 0; c < ch; ++c)
              row[x * ldd + c] = (x >= xlo && x < xhi) ? src[(x - xlo) * lds + c] : 0;
          continue;
        }
        if (xlo > 0)
          issue_copy(&cp, xlo, ch, 0, 0, row, ldd);
        if (xhi > xlo)
          issue_copy(&cp, xhi - xlo, ch, src, lds, row + xlo * ldd, ldd);
        if (ow > xhi)
          issue_copy(&cp, ow - xhi, ch, 0, 0, row + xhi * ldd, ldd);
      }
  return on_cpu ? BY_OK : by_kernel_end();
}

/* ---- CPU layers ------------------------------------------------------------------------- */

by_status_t by_maxpool(const by_window_t* w, const by_elem_t* input, by_elem_t* output) {
  if (!pool_window_ok(w) || !input || !output)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
  const size_t oh = by_window_out_rows(w), ow = by_window_out_cols(w), ch = w->channels;
  for (size_t b = 0; b < w->batch; ++b)
    for (size_t oy = 0; oy < oh; ++oy)
      for (size_t ox = 0; ox < ow; ++ox)
        for (size_t c = 0; c < ch; ++c) {
          int m = BY_ELEM_MIN;
          for (size_t ky = 0; ky < w->kernel_rows; ++ky)
            for (size_t kx = 0; kx < w->kernel_cols; ++kx) {
              const long iy = (long)(oy * w->stride_rows + ky) - (long)w->pad_top;
              const long ix = (long)(ox * w->stride_cols + kx) - (long)w->pad_left;
              if (iy < 0 || ix < 0 || iy >= (long)w->in_rows || ix >= (long)w->in_cols)
                continue;
              const int v =
                  input[((b * w->in_rows + (size_t)iy) * w->in_cols + (size_t)ix) * ch + c];
              if (v > m)
                m = v;
            }
          output[((b * oh + oy) * ow + ox) * ch + c] = (by_elem_t)m;
        }
  return BY_OK;
}

by_status_t by_avgpool(const by_window_t* w, const by_elem_t* input, by_elem_t* output, float scale,
                       const float* scales, int activation) {
  if (!pool_window_ok(w) || !input || !output)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
  const size_t oh = by_window_out_rows(w), ow = by_window_out_cols(w), ch = w->channels;
  for (size_t b = 0; b < w->batch; ++b)
    for (size_t oy = 0; oy < oh; ++oy)
      for (size_t ox = 0; ox < ow; ++ox)
        for (size_t c = 0; c < ch; ++c) {
          int64_t sum = 0;
          size_t count = 0;
          for (size_t ky = 0; ky < w->kernel_rows; ++ky)
            for (size_t kx = 0; kx < w->kernel_cols; ++kx) {
              const long iy = (long)(oy * w->stride_rows + ky) - (long)w->pad_top;
              const long ix = (long)(ox * w->stride_cols + kx) - (long)w->pad_left;
              if (iy < 0 || ix < 0 || iy >= (long)w->in_rows || ix >= (long)w->in_cols)
                continue;
              sum = by_wrap(
                  sum + input[((b * w->in_rows + (size_t)iy) * w->in_cols + (size_t)ix) * ch + c],
                  BY_ACC_WIDTH);
              ++count;
            }
          output[((b * oh + oy) * ow + ox) * ch + c] =
              by_cpu_output(sum, scales ? scales[count] : scale, activation);
        }
  return BY_OK;
}

by_status_t by_softmax(size_t rows, size_t cols, const by_elem_t* input, by_elem_t* output,
                       const uint32_t* exp_table) {
  if (!input || !output || !exp_table || rows == 0 || cols == 0)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
  for (size_t r = 0; r < rows; ++r) {
    const by_elem_t* x = input + r * cols;
    int m = BY_ELEM_MIN;
    for (size_t i = 0; i < cols; ++i)
      if (x[i] > m)
        m = x[i];
    uint64_t sum = 0;
    for (size_t i = 0; i < cols; ++i)
      sum += exp_table[m - x[i]];
    for (size_t i = 0; i < cols; ++i) {
      const uint64_t num = 127u * (uint64_t)exp_table[m - x[i]];
      const uint64_t q = num / sum, rem = num % sum;
      const uint64_t up = (2 * rem > sum || (2 * rem == sum && (q & 1u))) ? 1u : 0u;
      output[r * cols + i] = (by_elem_t)(q + up);
    }
  }
  return BY_OK;
}

/* floor(sqrt(v)), bit by bit: exact, and the host has no FPU. */
by_status_t by_clamp(size_t n, const by_elem_t* input, by_elem_t* output, int lo, int hi) {
  if (!input || !output || lo > hi)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
  for (size_t i = 0; i < n; ++i) {
    const int v = input[i];
    output[i] = (by_elem_t)(v < lo ? lo : v > hi ? hi : v);
  }
  return BY_OK;
}

by_status_t by_set_table(const by_elem_t* table) {
  if (!table)
    return BY_ERR_ARG;
  if (!by_has_table())
    return BY_ERR_UNSUPPORTED;
  by_wait_in_flight(); /* no mvout of the work before still applies the old table */
  for (uint32_t chunk = 0; chunk < 32; ++chunk) {
    uint64_t entries = 0;
    for (unsigned k = 0; k < 8; ++k)
      entries |= (uint64_t)(uint8_t)table[chunk * 8 + k] << (8 * k);
    by_config_table(chunk, 1, chunk == 31, entries);
  }
  return BY_OK;
}

void by_clear_table(void) {
  by_wait_in_flight(); /* the kernel's mvouts apply the table until they are done */
  if (by_has_table())
    by_config_table(0, 0, 0, 0);
}

by_status_t by_lookup(size_t n, const by_elem_t* input, by_elem_t* output, const by_elem_t* table) {
  if (!input || !output || !table)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
  /* Eight at a time: a load, the table read and a store per element, the loop's own
   * instructions once per eight (the host has no vector unit). */
  const by_elem_t* t = table - BY_ELEM_MIN;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const by_elem_t* x = input + i;
    by_elem_t* y = output + i;
    y[0] = t[x[0]], y[1] = t[x[1]], y[2] = t[x[2]], y[3] = t[x[3]];
    y[4] = t[x[4]], y[5] = t[x[5]], y[6] = t[x[6]], y[7] = t[x[7]];
  }
  for (; i < n; ++i)
    output[i] = t[input[i]];
  return BY_OK;
}

by_status_t by_mul(size_t batch, size_t pixels, size_t channels, const by_elem_t* a,
                   const by_elem_t* b, int b_per_channel, by_elem_t* output, float scale) {
  if (!a || !b || !output || channels == 0)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
    /* A factor per channel over many pixels: the 2^BY_INPUT_WIDTH products of each channel's
     * factor once (accScale costs a float multiply, done in software by a host without FPU),
     * then one table read per element. */
#if BY_INPUT_WIDTH == 8
  enum { VALUES = 256 };
  if (b_per_channel && pixels > VALUES) {
    by_elem_t table[VALUES];
    for (size_t n = 0; n < batch; ++n)
      for (size_t c = 0; c < channels; ++c) {
        const int64_t f = b[n * channels + c];
        for (int v = 0; v < VALUES; ++v)
          table[v] = by_cpu_output((int64_t)(v + BY_ELEM_MIN) * f, scale, BY_ACT_NONE);
        for (size_t p = 0; p < pixels; ++p) {
          const size_t i = (n * pixels + p) * channels + c;
          output[i] = table[a[i] - BY_ELEM_MIN];
        }
      }
    return BY_OK;
  }
#endif
  for (size_t n = 0; n < batch; ++n)
    for (size_t p = 0; p < pixels; ++p)
      for (size_t c = 0; c < channels; ++c) {
        const size_t i = (n * pixels + p) * channels + c;
        const int64_t prod = (int64_t)a[i] * b[b_per_channel ? n * channels + c : i];
        output[i] = by_cpu_output(prod, scale, BY_ACT_NONE);
      }
  return BY_OK;
}

by_status_t by_nhwc_to_chw(size_t batch, size_t rows, size_t cols, size_t channels,
                           const by_elem_t* input, by_elem_t* output) {
  if (!input || !output || input == output)
    return BY_ERR_ARG;
  const by_status_t drained = by_drain(); /* the CPU reads what kernels wrote */
  if (drained != BY_OK)
    return drained;
  const size_t per = rows * cols * channels;
  for (size_t b = 0; b < batch; ++b)
    for (size_t y = 0; y < rows; ++y)
      for (size_t x = 0; x < cols; ++x)
        for (size_t c = 0; c < channels; ++c)
          output[b * per + (c * rows + y) * cols + x] =
              input[b * per + (y * cols + x) * channels + c];
  return BY_OK;
}
