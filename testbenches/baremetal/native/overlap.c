/* Overlapped kernels (brickyard/kernels.h, docs/driver.md "Overlapped kernels"): with
 * by_set_overlap(1) kernels return before their work is done. A chain whose every step reads
 * what the step before wrote (accelerator -> accelerator through DRAM, accelerator -> CPU
 * kernel, a kernel that runs kernels of its own: the depthwise convolution's workspace) must
 * give the CPU references' results, the drain hook must run once per drain, and a refusal of
 * work that returned early must be reported exactly once: to the hook, or without one by
 * by_drain() or the next kernel. */
#include "bm_ref.h"
#include "bm_test.h"

#define MI 37
#define MK 40
#define MJ 29
static by_elem_t A[MI * MK], B[MK * MJ], C1[MI * MJ], X[MI * MJ], C2[MI * MJ], C3[MI * MJ];
static by_elem_t want1[MI * MJ], want2[MI * MJ], want3[MI * MJ];
static int64_t acc[MI * MJ];

#define CR 9
#define CC 11
#define CH 24
#define PR 4 /* 3x3/2 max-pool of the 9 x 11 depthwise output: 4 x 5 */
#define PC 5
static by_elem_t in[CR * CC * CH], dw_w[CH * 9], dw_out[CR * CC * CH], pooled[PR * PC * CH];
static by_elem_t dw_want[CR * CC * CH], pool_want[PR * PC * CH];
static by_acc_t dw_bias[CH];
static unsigned char workspace[64 * 1024];

static int hook_calls;
static by_status_t hook_seen = BY_OK;
static void count_drains(by_status_t drained, void* ctx) {
  ++*(int*)ctx;
  if (drained != BY_OK)
    hook_seen = drained;
}

static void chain(void) {
  const float s1 = 1.0f / 64, s2 = 0.75f;
  bm_fill(A, MI * MK, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(B, MK * MJ, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(X, MI * MJ, BY_ELEM_MIN, BY_ELEM_MAX);
  ref_matmul(MI, MJ, MK, A, MK, 0, B, MJ, 0, 0, 0, 1, BY_DIM, acc);
  for (size_t i = 0; i < MI * MJ; ++i) {
    want1[i] = ref_out(acc[i], s1, 0);
    want2[i] = ref_out((int64_t)want1[i] + X[i], s2, 1);
    want3[i] = (by_elem_t)(want2[i] > 50 ? 50 : want2[i]);
  }
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = MI, m.J = MJ, m.K = MK;
  m.A = A, m.lda = MK, m.B = B, m.ldb = MJ, m.C = C1, m.ldc = MJ;
  m.scale = s1;
  m.activation = BY_ACT_NONE;
  BM_OK(by_matmul(&m));
  /* Reads C1 by DMA: its begin waits for the matmul. */
  BM_OK(by_resadd(MI, MJ, C1, MJ, X, MJ, C2, MJ, s2, BY_ACT_RELU, 0));
  /* Reads C2 on the CPU: drains first. */
  BM_OK(by_clamp(MI * MJ, C2, C3, BY_ELEM_MIN, 50));
  bm_compare("matmul", C1, want1, MI * MJ);
  bm_compare("resadd after matmul", C2, want2, MI * MJ);
  bm_compare("clamp after resadd", C3, want3, MI * MJ);

  /* A depthwise convolution without packed weights runs a zero fill (kernels of its own) and
   * writes its weights on the CPU: those inner kernels fence. Then a CPU max-pool of it. */
  bm_fill(in, CR * CC * CH, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(dw_w, CH * 9, -64, 63);
  bm_fill_acc(dw_bias, CH, -3000, 3000);
  for (size_t y = 0; y < CR; ++y)
    for (size_t x = 0; x < CC; ++x)
      for (size_t ch = 0; ch < CH; ++ch)
        dw_want[(y * CC + x) * CH + ch] =
            ref_out(ref_conv_acc(in, CR, CC, CH, dw_w, CH, dw_bias, 3, 3, 1, 1, 1, 1, 0, y, x, ch),
                    1.0f / 16, 0);
  for (size_t y = 0; y < PR; ++y)
    for (size_t x = 0; x < PC; ++x)
      for (size_t ch = 0; ch < CH; ++ch) {
        int best = BY_ELEM_MIN;
        for (size_t ky = 0; ky < 3; ++ky)
          for (size_t kx = 0; kx < 3; ++kx) {
            const int v = dw_want[((y * 2 + ky) * CC + x * 2 + kx) * CH + ch];
            best = v > best ? v : best;
          }
        pool_want[(y * PC + x) * CH + ch] = (by_elem_t)best;
      }
  by_conv_t c;
  by_conv_init(&c);
  c.batch = 1, c.in_rows = CR, c.in_cols = CC, c.in_ch = CH, c.out_ch = CH;
  c.kernel_rows = c.kernel_cols = 3, c.stride = 1, c.padding = 1, c.depthwise = 1;
  c.input = in, c.weights = dw_w, c.bias = dw_bias, c.output = dw_out;
  c.activation = BY_ACT_NONE, c.scale = 1.0f / 16;
  c.workspace = workspace, c.workspace_bytes = sizeof workspace;
  BM_OK(by_conv(&c));
  const by_window_t w = {1, CR, CC, CH, 3, 3, 2, 2, 0, 0, 0, 0, 0, 1};
  BM_OK(by_maxpool(&w, dw_out, pooled));
  bm_compare("max-pool after depthwise", pooled, pool_want, PR * PC * CH);
  BM_OK(by_drain());
  bm_compare("depthwise", dw_out, dw_want, CR * CC * CH);
}

static by_elem_t M[BY_DIM * BY_DIM], out[BY_DIM * BY_DIM];

/* A refused raw command before a kernel that returns early: the next drain finds it. */
static void refuse_then_copy(void) {
  by_mvin(0, M, by_sp_addr(BY_SP_ROWS - 1), BY_DIM, BY_DIM); /* rows beyond the scratchpad */
  BM_CHECK(by_copy(BY_DIM, BY_DIM, M, BY_DIM, out, BY_DIM, 0) == BY_OK,
           "a kernel that returns early reported a refusal before its drain");
}

int main(void) {
  bm_seed(5011, "overlap");
  by_error_clear();
  (void)by_take_refusals(NULL);
  bm_fill(M, BY_DIM * BY_DIM, BY_ELEM_MIN, BY_ELEM_MAX);

  by_set_overlap(1);
  chain();
  by_set_drain_hook(count_drains, &hook_calls);
  chain();
  /* One drain per outermost kernel and CPU kernel: matmul, resadd, clamp, conv, max-pool and
   * by_drain (the conv's inner zero fill drains nothing: it runs inside the conv). */
  BM_CHECK(hook_calls == 6, "drain hook ran %d times, want 6", hook_calls);
  BM_CHECK(hook_seen == BY_OK, "the hook saw a refusal in a clean chain");

  /* With a hook, the refusal goes to the hook at the drain, once. */
  refuse_then_copy();
  BM_CHECK(hook_seen == BY_OK, "the hook saw the refusal before the drain");
  BM_CHECK(by_drain() == BY_OK, "by_drain returned a refusal the hook took");
  BM_CHECK(hook_seen == BY_ERR_HW, "the hook missed the refusal");
  bm_compare("copy after a refusal (hook)", out, M, BY_DIM * BY_DIM);
  hook_seen = BY_OK;
  BM_CHECK(by_drain() == BY_OK && hook_seen == BY_OK, "the refusal was reported twice");

  /* Without a hook: by_drain reports it, once. */
  by_set_drain_hook(0, 0);
  refuse_then_copy();
  BM_CHECK(by_drain() == BY_ERR_HW, "by_drain missed the refusal");
  BM_CHECK(by_drain() == BY_OK, "by_drain reported the refusal twice");
  /* ... or the next kernel: its begin waits, its end reports. */
  refuse_then_copy();
  by_status_t s = by_copy(BY_DIM, BY_DIM, M, BY_DIM, out, BY_DIM, 0);
  BM_CHECK(s == BY_ERR_HW, "the next kernel missed the refusal: %s", by_status_string(s));
  BM_CHECK(by_drain() == BY_OK, "the refusal was reported again");

  /* Overlap off: kernels fence at their end again and report their own refusals. */
  by_set_overlap(0);
  by_mvin(0, M, by_sp_addr(BY_SP_ROWS - 1), BY_DIM, BY_DIM);
  s = by_copy(BY_DIM, BY_DIM, M, BY_DIM, out, BY_DIM, 0);
  BM_CHECK(s == BY_ERR_HW, "overlap off: the kernel did not report the refusal: %s",
           by_status_string(s));
  chain();
  return bm_finish("overlap");
}
