/* Boveda compressed moves through the driver (brickyard/boveda.h): A and B are compressed by
 * the accelerator's compressor (raw tiles moved in, compressed MVOUTs), every block checked bit
 * for bit against a reference encoder (bm_ref.h) and decompressed again; then C = A x B (scaled,
 * ReLU) is computed once with plain moves and once from the compressed A and B (compressed
 * MVINs), over several tiles in every dimension and partial blocks, and both are checked
 * against the driver's CPU reference (cpu.h), the suite's independent one (bm_ref.h) and each
 * other; with blocks of MAX_BLOCK_LEN tiles LOOP_WS moves them (configs with loops.ws). Also the tile-level commands on their own, a pointer entry the hardware must refuse,
 * and the driver's argument checks. On a config without Boveda it checks that every
 * compressed call is refused without issuing a command, and runs the plain matmuls. */
#include "bm_ref.h"
#include "bm_test.h"

#define MAX_I (4 * BY_DIM + 3)
#define MAX_J (5 * BY_DIM + 3)
#define MAX_K (7 * BY_DIM + 2)
#define MAX_ELEMS (MAX_K * MAX_J) /* the largest operand */
/* Stream capacity: worst case ~(IW+1)/IW of the raw bytes plus a few containers per block. */
#define STREAM_BYTES (2 * MAX_ELEMS * sizeof(by_elem_t) + 8192)
#define TABLE_ENTRIES 1024

static by_elem_t A[MAX_I * MAX_K], B[MAX_K * MAX_J];
static by_elem_t C_plain[MAX_I * MAX_J], C_comp[MAX_I * MAX_J], C_cpu[MAX_I * MAX_J],
    C_ref[MAX_I * MAX_J];
static int64_t acc_ref[MAX_I * MAX_J];
static uint64_t a_stream[STREAM_BYTES / 8], a_table[TABLE_ENTRIES];

typedef struct {
  const char* name;
  size_t I, J, K;
  int dataflow;
  size_t tile_i, tile_j, tile_k; /* 0: automatic */
  size_t a_block_cols, b_block_cols;
  int kind; /* values: 0 small (compress well), 1 sparse, 2 full range */
  float scale;
  int relu;
  int expect_loop; /* compressed blocks the LOOP_WS moves: the loop must run it (loops.ws) */
} mm_case_t;

static void fill(by_elem_t* p, size_t n, int kind) {
  for (size_t i = 0; i < n; ++i) {
    if (kind == 0)
      p[i] = (by_elem_t)bm_rand_range(-6, 6);
    else if (kind == 1)
      p[i] = bm_rand() % 4 == 0 ? (by_elem_t)bm_rand_range(BY_ELEM_MIN, BY_ELEM_MAX) : 0;
    else
      p[i] = (by_elem_t)bm_rand_range(BY_ELEM_MIN, BY_ELEM_MAX);
  }
}

static void init_matmul(by_matmul_t* m, const mm_case_t* c, by_elem_t* C) {
  by_matmul_init(m);
  m->I = c->I;
  m->J = c->J;
  m->K = c->K;
  m->A = A;
  m->lda = c->K;
  m->B = B;
  m->ldb = c->J;
  m->C = C;
  m->ldc = c->J;
  m->activation = c->relu ? BY_ACT_RELU : BY_ACT_NONE;
  m->scale = c->scale;
  m->dataflow = c->dataflow;
  m->tile_i = c->tile_i;
  m->tile_j = c->tile_j;
  m->tile_k = c->tile_k;
}

static uint64_t dma_read_bytes(void) {
  by_fence();
  return by_perf_read(BY_REG_DMA_READ_BYTES_LO);
}

/* C = A x B with plain moves, checked against both CPU references. tiles: the tiling to use
 * (the compressed run's, so that both sum the same K chunks), NULL: the case's. */
static void plain_matmul(const mm_case_t* c, const by_matmul_plan_t* tiles) {
  by_matmul_t m;
  init_matmul(&m, c, C_plain);
  if (tiles) {
    m.tile_i = tiles->tile_i;
    m.tile_j = tiles->tile_j;
    m.tile_k = tiles->tile_k;
  }
  by_matmul_plan_t plan = {0};
  BM_OK(by_matmul_plan(&m, &plan));
  bm_fill_zero(C_plain, sizeof C_plain);
  const uint64_t r0 = dma_read_bytes(), t0 = by_cycles();
  BM_OK(by_matmul(&m));
  const uint64_t t1 = by_cycles(), r1 = dma_read_bytes();
  printf("%s: %lux%lux%lu %s tiles %lux%lux%lu; plain: %lu DMA bytes read", c->name,
         (unsigned long)c->I, (unsigned long)c->J, (unsigned long)c->K,
         plan.dataflow == BY_DATAFLOW_WS ? "WS" : "OS", (unsigned long)plan.tile_i,
         (unsigned long)plan.tile_j, (unsigned long)plan.tile_k, (unsigned long)(r1 - r0));
  if (BY_HAL_TIMED)
    printf(", %lu cycles", (unsigned long)(t1 - t0));
  printf("\n");

  by_matmul_t cpu;
  init_matmul(&cpu, c, C_cpu);
  by_cpu_matmul(&cpu, plan.dataflow, plan.k_chunk);
  ref_matmul(c->I, c->J, c->K, A, c->K, 0, B, c->J, 0, 0, 0, plan.dataflow == BY_DATAFLOW_WS,
             plan.k_chunk, acc_ref);
  for (size_t i = 0; i < c->I * c->J; ++i)
    C_ref[i] = ref_out(acc_ref[i], c->scale, c->relu);
  bm_compare("cpu.h vs bm_ref.h", C_cpu, C_ref, c->I * c->J);
  bm_compare("plain vs CPU", C_plain, C_cpu, c->I * c->J);
}

#if BY_HAS_BOVEDA

static uint64_t b_stream[STREAM_BYTES / 8], b_table[TABLE_ENTRIES];
static by_elem_t back[MAX_ELEMS];
/* One block's values and its reference stream (at most ~(IW+1)/IW of its raw bytes). */
static by_elem_t block_vals[BY_MAX_BLOCK_LEN * BY_DIM * BY_DIM];
static uint8_t ref_block[2 * sizeof block_vals + 1024];

static by_boveda_matrix_t matrix(size_t rows, size_t cols, size_t block_cols, uint64_t* stream,
                                 uint64_t* table) {
  by_boveda_matrix_t x;
  x.rows = rows;
  x.cols = cols;
  x.block_cols = block_cols;
  x.stream = stream;
  x.stream_bytes = STREAM_BYTES;
  x.table = table;
  return x;
}

/* Compresses src (rows x cols) into x and checks every block: its pointer entry (blocks back to
 * back in table order, no more containers than the driver's worst case) and its stream bytes
 * against the reference encoder; then decompresses it again. Returns the stream bytes used. */
static size_t compress_and_check(const char* what, const by_boveda_matrix_t* x,
                                 const by_elem_t* src) {
  BM_CHECK(by_boveda_matrix_blocks(x) <= TABLE_ENTRIES, "%s: table too small", what);
  BM_CHECK(by_boveda_matrix_stream_bytes(x) <= STREAM_BYTES, "%s: stream buffer too small", what);
  BM_OK(by_boveda_compress(x, src, x->cols));
  const size_t bc = by_boveda_matrix_block_cols(x), cbs = by_boveda_matrix_col_blocks(x);
  const size_t cbytes = by_boveda_container_bytes();
  uint32_t next = 0;
  size_t bad = 0;
  for (size_t band = 0; band < by_boveda_matrix_bands(x); ++band)
    for (size_t cb = 0; cb < cbs; ++cb) {
      const size_t r0 = band * BY_DIM, c0 = cb * bc;
      const size_t rows = x->rows - r0 < BY_DIM ? x->rows - r0 : BY_DIM;
      const size_t cols = x->cols - c0 < bc ? x->cols - c0 : bc;
      for (size_t r = 0; r < rows; ++r)
        for (size_t k = 0; k < cols; ++k)
          block_vals[r * cols + k] = src[(r0 + r) * x->cols + c0 + k];
      const size_t want = ref_boveda_encode(block_vals, rows * cols, ref_block, sizeof ref_block);
      const by_boveda_entry_t e = by_boveda_entry_read(by_boveda_matrix_entry(x, band, cb));
      const uint8_t* got = (const uint8_t*)x->stream + (size_t)e.first * cbytes;
      size_t diff = 0;
      for (size_t i = 0; e.count == want && i < want * cbytes; ++i)
        diff += got[i] != ref_block[i];
      if ((e.first != next || e.count != want || want == 0 || diff ||
           e.count > by_boveda_max_containers(rows * cols)) &&
          bad++ < 5)
        printf("  %s block (%lu, %lu): entry {%lu, %lu}, want {%lu, %lu}, %lu bytes differ\n", what,
               (unsigned long)band, (unsigned long)cb, (unsigned long)e.first,
               (unsigned long)e.count, (unsigned long)next, (unsigned long)want,
               (unsigned long)diff);
      next = e.first + e.count;
    }
  BM_CHECK(bad == 0, "%s: %lu of %lu blocks differ from the reference encoder", what,
           (unsigned long)bad, (unsigned long)by_boveda_matrix_blocks(x));
  bm_fill_zero(back, sizeof back);
  BM_OK(by_boveda_decompress(x, back, x->cols));
  bm_compare(what, back, src, x->rows * x->cols);
  return by_boveda_matrix_used_bytes(x);
}

static void run(const mm_case_t* c) {
  const by_boveda_matrix_t a = matrix(c->I, c->K, c->a_block_cols, a_stream, a_table);
  const by_boveda_matrix_t b = matrix(c->K, c->J, c->b_block_cols, b_stream, b_table);
  by_matmul_t m;
  init_matmul(&m, c, C_comp);
  m.A = NULL; /* the compressed matrices only */
  m.B = NULL;
  m.A_boveda = &a;
  m.B_boveda = &b;
  /* Compressed operands move whole blocks, which constrains the K and J tiles; the plain run
   * uses the same tiles so that both sum the same K chunks (OS saturates per K tile). */
  by_matmul_plan_t cplan = {0};
  BM_OK(by_matmul_plan(&m, &cplan));
  BM_CHECK(!c->expect_loop || !by_has_loop_ws() || cplan.loop,
           "%s: compressed blocks of MAX_BLOCK_LEN tiles, yet no LOOP_WS", c->name);

  fill(A, c->I * c->K, c->kind);
  fill(B, c->K * c->J, c->kind);
  plain_matmul(c, &cplan);
  const size_t a_used = compress_and_check("A round trip", &a, A);
  const size_t b_used = compress_and_check("B round trip", &b, B);
  bm_fill_zero(C_comp, sizeof C_comp);
  const uint64_t r0 = dma_read_bytes(), t0 = by_cycles();
  BM_OK(by_matmul(&m));
  const uint64_t t1 = by_cycles(), r1 = dma_read_bytes();
  printf("%s: compressed (%s): tiles %lux%lux%lu, A %lu -> %lu bytes, B %lu -> %lu bytes (with "
         "padding), %lu DMA bytes read",
         c->name, cplan.loop ? "LOOP_WS" : "commands", (unsigned long)cplan.tile_i, (unsigned long)cplan.tile_j,
         (unsigned long)cplan.tile_k, (unsigned long)(c->I * c->K * sizeof(by_elem_t)),
         (unsigned long)a_used, (unsigned long)(c->K * c->J * sizeof(by_elem_t)),
         (unsigned long)b_used, (unsigned long)(r1 - r0));
  if (BY_HAL_TIMED)
    printf(", %lu cycles", (unsigned long)(t1 - t0));
  printf("\n");
  bm_compare("compressed vs CPU", C_comp, C_cpu, c->I * c->J);
  bm_compare("compressed vs plain", C_comp, C_plain, c->I * c->J);
}

/* A block whose every group is at full width (all BY_ELEM_MIN, a whole number of groups) takes
 * exactly the worst case by_boveda_max_containers() gives, which a compressed MVIN accepts. */
static void worst_case_block(void) {
  size_t k = 1;
  while (k < BY_MAX_BLOCK_LEN && (BY_DIM * BY_DIM * k) % BY_BOVEDA_GROUP_SIZE != 0)
    ++k;
  if ((BY_DIM * BY_DIM * k) % BY_BOVEDA_GROUP_SIZE != 0) {
    printf("worst case: no block of whole groups, skipped\n");
    return;
  }
  const size_t rows = BY_DIM, cols = k * BY_DIM;
  for (size_t i = 0; i < rows * cols; ++i)
    A[i] = BY_ELEM_MIN;
  const by_boveda_matrix_t x = matrix(rows, cols, cols, a_stream, a_table);
  compress_and_check("worst case", &x, A);
  const by_boveda_entry_t e = by_boveda_entry_read(a_table);
  BM_CHECK(e.count == by_boveda_max_containers(rows * cols),
           "worst case: %lu containers, by_boveda_max_containers says %lu", (unsigned long)e.count,
           (unsigned long)by_boveda_max_containers(rows * cols));
  BM_CHECK(by_boveda_matrix_stream_bytes(&x) == e.count * by_boveda_container_bytes(),
           "worst case: by_boveda_matrix_stream_bytes %lu for %lu containers",
           (unsigned long)by_boveda_matrix_stream_bytes(&x), (unsigned long)e.count);
}

/* The tile-level commands directly: compressed MVOUTs of two blocks into one stream (the
 * second continues where the first ended), compressed MVINs on channel 2 with a block stride
 * that spreads the column blocks, plain MVOUTs back. */
static void tile_commands(void) {
  const uint32_t rows = BY_DIM - 1, cols = 2 * BY_DIM + 1, stride = BY_DIM + 2;
  fill(A, 2 * rows * cols, 0);
  by_config_ld(0, cols * sizeof(by_elem_t), 0, 0);
  by_mvin(0, A, by_sp_addr(0), rows, cols);
  by_mvin(0, A + rows * cols, by_sp_addr(4 * BY_DIM), rows, cols);
  BM_OK(by_config_st_compressed(b_stream, BY_ACT_NONE, 1.0f));
  BM_OK(by_mvout_compressed(&b_table[0], by_sp_addr(0), rows, cols));
  BM_OK(by_mvout_compressed(&b_table[1], by_sp_addr(4 * BY_DIM), rows, cols));
  by_fence(); /* the entries and streams are in DRAM before the compressed MVINs read them */
  const by_boveda_entry_t e0 = by_boveda_entry_read(&b_table[0]);
  const by_boveda_entry_t e1 = by_boveda_entry_read(&b_table[1]);
  BM_CHECK(e0.first == 0 && e1.first == e0.count && e1.count > 0,
           "tile commands: entries {%lu, %lu} {%lu, %lu}", (unsigned long)e0.first,
           (unsigned long)e0.count, (unsigned long)e1.first, (unsigned long)e1.count);
  BM_OK(by_config_ld_compressed(2, b_stream, stride));
  BM_OK(by_mvin_compressed(2, &b_table[1], by_sp_addr(100), rows, cols));
  BM_OK(by_mvin_compressed(2, &b_table[0], by_sp_addr(200), rows, cols));
  by_config_st(BY_DIM * sizeof(by_elem_t), BY_ACT_NONE, 1.0f, NULL);
  bm_fill_zero(back, sizeof back);
  for (uint32_t blk = 0; blk < 3; ++blk) { /* column block blk at row + blk*stride */
    by_mvout(back + blk * BY_DIM * BY_DIM, by_sp_addr(100 + blk * stride), rows,
             blk < 2 ? BY_DIM : 1);
    by_mvout(back + (3 + blk) * BY_DIM * BY_DIM, by_sp_addr(200 + blk * stride), rows,
             blk < 2 ? BY_DIM : 1);
  }
  bm_expect_no_hw_error("tile commands");
  size_t bad = 0;
  for (uint32_t half = 0; half < 2; ++half)
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t k = 0; k < cols; ++k) {
        const by_elem_t got =
            back[((half ? 0 : 3) + k / BY_DIM) * BY_DIM * BY_DIM + r * BY_DIM + k % BY_DIM];
        bad += got != A[half * rows * cols + r * cols + k];
      }
  BM_CHECK(bad == 0, "tile commands: %lu values differ", (unsigned long)bad);
}

/* What the driver and the hardware refuse. */
static void refusals(void) {
  const mm_case_t c = {"refusals",
                       2 * BY_DIM + 1,
                       2 * BY_DIM,
                       3 * BY_DIM,
                       BY_DATAFLOW_AUTO,
                       1,
                       1,
                       1,
                       2 * BY_DIM,
                       2 * BY_DIM,
                       0,
                       1.0f,
                       0,
                       0};
  fill(A, c.I * c.K, 0);
  fill(B, c.K * c.J, 0);
  by_boveda_matrix_t a = matrix(c.I, c.K, c.a_block_cols, a_stream, a_table);
  const by_boveda_matrix_t b = matrix(c.K, c.J, c.b_block_cols, b_stream, b_table);
  BM_OK(by_boveda_compress(&a, A, c.K));
  BM_OK(by_boveda_compress(&b, B, c.J));
  by_matmul_t m;
  init_matmul(&m, &c, C_comp);
  m.A_boveda = &a;
  m.B_boveda = &b;
  /* tile_k = 1 block splits A's 2-block-wide blocks. */
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "K tile inside a compressed block accepted");
  m.tile_k = 2;
  m.tile_j = 1;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "J tile inside a compressed block accepted");
  m.tile_j = 2;
  m.on_cpu = 1;
  BM_CHECK(by_matmul(&m) == BY_ERR_UNSUPPORTED, "CPU fallback of compressed operands accepted");
  m.on_cpu = 0;
  m.a_transposed = 1;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "transposed compressed operand accepted");
  m.a_transposed = 0;
  m.I = c.I + 1;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "compressed A of the wrong shape accepted");
  m.I = c.I;
  a.stream_bytes = by_boveda_matrix_stream_bytes(&a) - 1;
  BM_CHECK(by_boveda_compress(&a, A, c.K) == BY_ERR_ARG, "stream below the worst case accepted");
  a.stream_bytes = STREAM_BYTES;
  a.block_cols = BY_DIM + 1;
  BM_CHECK(by_boveda_compress(&a, A, c.K) == BY_ERR_ARG, "block_cols not a multiple of DIM");
  a.block_cols = c.a_block_cols;
  BM_CHECK(by_mvout_compressed(NULL, by_sp_addr(0), 1, 1) == BY_ERR_ARG, "NULL entry accepted");
  bm_expect_no_hw_error("refusals before the hardware's");

  /* The hardware refuses a pointer entry whose count is 0: DMA_ERROR, BY_ERR_HW. */
  by_boveda_entry_t e = by_boveda_entry_read(by_boveda_matrix_entry(&a, 1, 0));
  const uint32_t count = e.count;
  e.count = 0;
  by_boveda_entry_write(by_boveda_matrix_entry(&a, 1, 0), e);
  const by_status_t s = by_boveda_decompress(&a, back, c.K);
  const by_error_t err = by_error();
  BM_CHECK(s == BY_ERR_HW && err.code == BY_ERROR_DMA_ERROR,
           "entry with count 0: status %d, error %s", (int)s, by_error_name(err.code));
  by_error_clear();
  e.count = count;
  by_boveda_entry_write(by_boveda_matrix_entry(&a, 1, 0), e);
  m.tile_i = m.tile_j = m.tile_k = 0;
  BM_OK(by_matmul(&m)); /* the restored entry works again */
  by_matmul_t cpu;
  init_matmul(&cpu, &c, C_cpu);
  by_matmul_plan_t plan;
  BM_OK(by_matmul_plan(&m, &plan));
  by_cpu_matmul(&cpu, plan.dataflow, plan.k_chunk);
  bm_compare("after the refused entry", C_comp, C_cpu, c.I * c.J);
}

#else /* no Boveda */

/* Every compressed call is refused with BY_ERR_UNSUPPORTED and issues nothing. */
static void refused_without_boveda(void) {
  uint64_t entry = 0;
  by_boveda_matrix_t x = {BY_DIM, BY_DIM, 0, a_stream, STREAM_BYTES, a_table};
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = m.J = m.K = BY_DIM;
  m.B = B;
  m.ldb = BY_DIM;
  m.C = C_comp;
  m.ldc = BY_DIM;
  m.A_boveda = &x;
  by_fence();
  const uint64_t commands = by_perf_read(BY_REG_COMMANDS_LO);
  const uint32_t errors = by_error().count;
  BM_CHECK(by_config_ld_compressed(0, a_stream, 0) == BY_ERR_UNSUPPORTED, "config_ld accepted");
  BM_CHECK(by_config_st_compressed(a_stream, BY_ACT_NONE, 1.0f) == BY_ERR_UNSUPPORTED,
           "config_st accepted");
  BM_CHECK(by_mvin_compressed(0, &entry, by_sp_addr(0), 1, 1) == BY_ERR_UNSUPPORTED,
           "mvin accepted");
  BM_CHECK(by_mvout_compressed(&entry, by_sp_addr(0), 1, 1) == BY_ERR_UNSUPPORTED,
           "mvout accepted");
  BM_CHECK(by_boveda_matrix_check(&x) == BY_ERR_UNSUPPORTED, "matrix accepted");
  BM_CHECK(by_boveda_compress(&x, A, BY_DIM) == BY_ERR_UNSUPPORTED, "compress accepted");
  BM_CHECK(by_boveda_decompress(&x, A, BY_DIM) == BY_ERR_UNSUPPORTED, "decompress accepted");
  BM_CHECK(by_matmul(&m) == BY_ERR_UNSUPPORTED, "matmul with a compressed operand accepted");
  BM_CHECK(by_boveda_entry_bytes() == 0 && by_boveda_container_bytes() == 0 &&
               by_boveda_max_containers(100) == 0 && by_boveda_matrix_stream_bytes(&x) == 0,
           "sizes without Boveda");
  by_fence();
  BM_CHECK(by_perf_read(BY_REG_COMMANDS_LO) == commands && by_error().count == errors,
           "refused calls issued commands");
}

#endif

int main(void) {
  bm_seed(6001, "boveda_matmul");
  by_error_clear();
  /* Sizes in DIM blocks: I 5 (3 tiles), J 4 (2 tiles), K 6 (3 tiles) with 2x2x2 tiles, the
   * last block of each partial; auto tiles with A's blocks as wide as an mvin allows. */
  const mm_case_t cases[] = {
      {"ws_tiles_222", 4 * BY_DIM + 3, 3 * BY_DIM + 2, 5 * BY_DIM + 1, BY_DATAFLOW_WS, 2, 2, 2,
       2 * BY_DIM, 2 * BY_DIM, 0, 0.25f, 1, 0},
      {"os_auto_sparse", 3 * BY_DIM + 1, 5 * BY_DIM + 3, 7 * BY_DIM + 2, BY_DATAFLOW_OS, 0, 0, 0,
       BY_MAX_BLOCK_LEN * BY_DIM, BY_DIM, 1, 0.015625f, 0, 0},
      {"ws_tiles_111_full_range", 2 * BY_DIM + 1, 2 * BY_DIM + 1, 3 * BY_DIM - 1, BY_DATAFLOW_WS, 1,
       1, 1, BY_DIM, BY_DIM, 2, 0.00390625f, 0, 0},
      /* Blocks of MAX_BLOCK_LEN tiles (or one block over a dimension): the loop's own moves. */
      {"ws_loop_blocks", 2 * BY_DIM + 1, 2 * BY_DIM + 2, 7 * BY_DIM + 2, BY_DATAFLOW_WS, 0, 0, 0,
       BY_MAX_BLOCK_LEN * BY_DIM, BY_MAX_BLOCK_LEN * BY_DIM, 1, 0.015625f, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    if ((cases[i].dataflow == BY_DATAFLOW_WS && !BY_HAS_WS) ||
        (cases[i].dataflow == BY_DATAFLOW_OS && !BY_HAS_OS)) {
      printf("%s: dataflow not built, skipped\n", cases[i].name);
      continue;
    }
#if BY_HAS_BOVEDA
    run(&cases[i]);
#else
    fill(A, cases[i].I * cases[i].K, cases[i].kind);
    fill(B, cases[i].K * cases[i].J, cases[i].kind);
    plain_matmul(&cases[i], NULL);
#endif
  }
#if BY_HAS_BOVEDA
  worst_case_block();
  tile_commands();
  refusals();
#else
  printf("no Boveda in %s: compressed moves must be refused\n", BY_CONFIG_NAME);
  refused_without_boveda();
#endif
  bm_expect_no_hw_error("boveda_matmul");
  return bm_finish("boveda_matmul");
}
