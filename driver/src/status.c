#include "brickyard/accel.h"
#include "brickyard/kernels.h"

const char* by_error_name(uint32_t code) {
  switch (code) {
#define BY_ERROR_CASE(name, doc)                                                                   \
  case BY_ERROR_##name:                                                                            \
    return #name;
    BY_FOR_EACH_ERROR(BY_ERROR_CASE)
#undef BY_ERROR_CASE
  default:
    return "?";
  }
}

const char* by_error_doc(uint32_t code) {
  switch (code) {
#define BY_ERROR_CASE(name, doc)                                                                   \
  case BY_ERROR_##name:                                                                            \
    return doc;
    BY_FOR_EACH_ERROR(BY_ERROR_CASE)
#undef BY_ERROR_CASE
  default:
    return "an error code this driver does not know";
  }
}

const char* by_funct_name(uint32_t funct) {
  switch (funct) {
#define BY_FUNCT_CASE(name, funct)                                                                 \
  case funct:                                                                                      \
    return #name;
    BY_FOR_EACH_FUNCT(BY_FUNCT_CASE)
#undef BY_FUNCT_CASE
  default:
    return "?";
  }
}

/* ERROR_COUNT as of the last time the driver reported refusals: one accelerator per program,
 * like the register it mirrors. */
static uint32_t refusals_reported;

uint32_t by_take_refusals(by_error_t* e) {
  by_fence();
  const by_error_t now = by_error();
  const uint32_t fresh = now.count - refusals_reported;
  refusals_reported = now.count;
  if (e)
    *e = now;
  return fresh;
}
