#include "brickyard/accel.h"
#include "brickyard/kernels.h"

const char* by_error_name(uint32_t code) {
  switch (code) {
  case BY_ERROR_NONE:
    return "NONE";
  case BY_ERROR_UNKNOWN_FUNCT:
    return "UNKNOWN_FUNCT";
  case BY_ERROR_BAD_CONFIG_TYPE:
    return "BAD_CONFIG_TYPE";
  case BY_ERROR_UNSUPPORTED:
    return "UNSUPPORTED";
  case BY_ERROR_LOCAL_RANGE:
    return "LOCAL_RANGE";
  case BY_ERROR_BAD_LOCAL_ADDR:
    return "BAD_LOCAL_ADDR";
  case BY_ERROR_BAD_SIZE:
    return "BAD_SIZE";
  case BY_ERROR_BAD_SHIFT:
    return "BAD_SHIFT";
  case BY_ERROR_UNPAIRED:
    return "UNPAIRED";
  case BY_ERROR_DMA_ERROR:
    return "DMA_ERROR";
  case BY_ERROR_BAD_POOL:
    return "BAD_POOL";
  default:
    return "?";
  }
}
