/* Residual add (by_resadd, also in place) and global average pooling (by_global_average),
 * with scales, ReLU and sizes that are no multiple of DIM; against bm_ref.h. */
#include "bm_ref.h"
#include "bm_test.h"

#define RI 19
#define RJ 70
static by_elem_t A[RI * RJ], B[RI * RJ], C[RI * RJ], want[RI * RJ];
#define GB 5
#define GP 49
#define GC 37
static by_elem_t gin[GB * GP * GC], gout[GB * GC], gwant[GB * GC];

static void resadd_case(const char* name, size_t I, size_t J, float scale, int relu, int in_place,
                        int on_cpu) {
  bm_fill(A, I * J, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(B, I * J, BY_ELEM_MIN, BY_ELEM_MAX);
  for (size_t i = 0; i < I * J; ++i)
    want[i] = ref_out((int64_t)A[i] + B[i], scale, relu);
  by_elem_t* dst = in_place ? A : C;
  BM_OK(by_resadd(I, J, A, J, B, J, dst, J, scale, relu ? BY_ACT_RELU : BY_ACT_NONE, on_cpu));
  bm_compare(name, dst, want, I * J);
}

static void average_case(const char* name, size_t batch, size_t pixels, size_t channels,
                         int extreme, int on_cpu) {
  if (extreme)
    for (size_t i = 0; i < batch * pixels * channels; ++i)
      gin[i] = (i / channels) % 2 ? BY_ELEM_MIN : BY_ELEM_MAX;
  else
    bm_fill(gin, batch * pixels * channels, BY_ELEM_MIN, BY_ELEM_MAX);
  for (size_t b = 0; b < batch; ++b)
    for (size_t ch = 0; ch < channels; ++ch) {
      int64_t sum = 0;
      for (size_t p = 0; p < pixels; ++p)
        sum += gin[(b * pixels + p) * channels + ch];
      gwant[b * channels + ch] = ref_out(sum, 1.0f / (float)pixels, 0);
    }
  BM_OK(by_global_average(gin, gout, batch, pixels, channels, on_cpu));
  bm_compare(name, gout, gwant, batch * channels);
}

int main(void) {
  bm_seed(5003, "eltwise");
  by_error_clear();
  resadd_case("resadd", RI, RJ, 1.0f, 0, 0, 0);
  resadd_case("resadd_scaled_relu", 7, 33, 0.5f, 1, 0, 0);
  resadd_case("resadd_in_place", RI, RJ, 0.75f, 0, 1, 0);
  resadd_case("resadd_cpu", 7, 33, 0.5f, 1, 0, 1);
  average_case("global_average", GB, GP, GC, 0, 0);
  average_case("global_average_one_pixel", 3, 1, 5, 0, 0);
  average_case("global_average_ties", 2, 4, 9, 1, 0);
  average_case("global_average_cpu", GB, GP, GC, 0, 1);
  BM_CHECK(by_resadd(0, 4, A, 4, B, 4, C, 4, 1.0f, 0, 0) == BY_ERR_ARG, "I = 0 accepted");
  BM_CHECK(by_global_average(gin, gout, 1, 0, 4, 0) == BY_ERR_ARG, "pixels = 0 accepted");
  bm_expect_no_hw_error("eltwise");
  return bm_finish("eltwise");
}
