/* by_status_string (brickyard/plan.h): the statuses of the planner and the kernels, which the
 * compiler also reports. */
#include "brickyard/plan.h"

const char* by_status_string(by_status_t status) {
  switch (status) {
  case BY_OK:
    return "ok";
  case BY_ERR_ARG:
    return "invalid argument (missing operand, zero or inconsistent size, or tiles that do "
           "not fit)";
  case BY_ERR_ADDR:
    return "an operand lies beyond the accelerator's 32-bit DRAM addresses";
  case BY_ERR_UNSUPPORTED:
    return "the hardware configuration does not support this operation";
  case BY_ERR_WORKSPACE:
    return "a workspace of the size *_workspace_bytes() reports is needed";
  case BY_ERR_HW:
    return "the accelerator rejected a command (see by_error())";
  }
  return "unknown status";
}
