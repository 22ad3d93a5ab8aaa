// The host HAL (BY_HAL_HOST, BY_HAL_HOST_MMIO): commands go to the functional ISA model
// (models/funcmodel), and the accelerator's control registers are emulated from the
// model's state as far as the model knows them: STATUS (never busy: the model executes each
// command when it arrives), ERROR / ERROR_COUNT, the CMD_* push path and RESP_*, the HW_*
// identification, and the DMA byte and command counters. Timing counters read 0.
//
// The model is built on first use from the YAML config named by BY_HOST_CONFIG_FILE, the same
// config whose generated headers the driver was compiled with; a mismatch between the two is
// reported and ends the program.
#include "brickyard_isa.h"
#include "brickyard_params.h"
#include "config/loader.h"
#include "funcmodel/func_model.h"
#include "host_memory.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>

#ifndef BY_HOST_CONFIG_FILE
#error "BY_HOST_CONFIG_FILE must name the config the driver was generated for"
#endif

namespace {

using by::funcmodel::FuncModel;

#ifdef BY_BOVEDA
constexpr bool kHeaderBoveda = true;
#else
constexpr bool kHeaderBoveda = false;
#endif

// The emulated accelerator: one per process, like the hardware it stands for.
struct HostAccelerator {
  by::config::Config config;
  by::driverhost::HostMemory memory;
  std::unique_ptr<FuncModel> model;
  uint32_t cmdFunct = 0;
  uint64_t cmdRs1 = 0, cmdRs2 = 0;
  uint64_t resp = 0;
  bool respValid = false;
  uint32_t latchedHi = 0;
  uint64_t commandsAccepted = 0;
  uint64_t commandsByFunct[128] = {};
  uint64_t baseRead = 0, baseWritten = 0, baseCommands = 0; // COUNTERS_RESET

  HostAccelerator() {
    try {
      config = by::config::loadConfigFile(BY_HOST_CONFIG_FILE);
      model = std::make_unique<FuncModel>(config, memory);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "brickyard host driver: %s\n", e.what());
      std::exit(1);
    }
    const auto& p = model->params();
    if (p.dim != BY_DIM || p.spRows != BY_SP_ROWS || p.accRows != BY_ACC_ROWS ||
        p.inputWidth != BY_INPUT_WIDTH || p.accWidth != BY_ACC_WIDTH ||
        p.outputWidth != BY_SPATIAL_OUTPUT_WIDTH || p.maxBlockLen != BY_MAX_BLOCK_LEN ||
        p.maxBlockLenAcc != BY_MAX_BLOCK_LEN_ACC || p.hasWs != BY_HAS_WS || p.hasOs != BY_HAS_OS ||
        p.boveda != kHeaderBoveda) {
      std::fprintf(stderr,
                   "brickyard host driver: %s does not match the headers the driver was built "
                   "with (config '%s')\n",
                   BY_HOST_CONFIG_FILE, BY_CONFIG_NAME);
      std::exit(1);
    }
  }

  uint64_t execute(uint32_t funct, uint64_t rs1, uint64_t rs2) {
    const by::funcmodel::ExecResult r = model->execute(funct, rs1, rs2);
    ++commandsByFunct[funct & 127u];
    if (r.accepted)
      ++commandsAccepted;
    return r.hasRd ? r.rd : 0;
  }

  uint64_t counter64(uint32_t loOffset) const {
    switch (loOffset) {
    case BY_REG_DMA_READ_BYTES_LO:
      return model->dramBytesRead() - baseRead;
    case BY_REG_DMA_WRITE_BYTES_LO:
      return model->dramBytesWritten() - baseWritten;
    case BY_REG_COMMANDS_LO:
      return commandsAccepted - baseCommands;
    default:
      return 0; // timing: the functional model has none
    }
  }

  uint32_t read(uint32_t offset) {
    const auto& p = model->params();
    switch (offset) {
    case BY_REG_STATUS:
      return (respValid ? BY_REG_STATUS_RESP_VALID_MASK << BY_REG_STATUS_RESP_VALID_SHIFT : 0u) |
             (model->error().code
                  ? BY_REG_STATUS_ERROR_PENDING_MASK << BY_REG_STATUS_ERROR_PENDING_SHIFT
                  : 0u);
    case BY_REG_ERROR:
      return (uint32_t(model->error().code) << BY_REG_ERROR_CODE_SHIFT) |
             (uint32_t(model->error().funct) << BY_REG_ERROR_FUNCT_SHIFT);
    case BY_REG_ERROR_COUNT:
      return model->error().count;
    case BY_REG_CMD_FUNCT:
      return cmdFunct;
    case BY_REG_RESP_LO:
      return uint32_t(resp);
    case BY_REG_RESP_HI:
      respValid = false;
      return uint32_t(resp >> 32);
    case BY_REG_HW_DIM:
      return uint32_t(p.dim);
    case BY_REG_HW_LANES:
      return BY_LANES;
    case BY_REG_HW_SP_ROWS:
      return uint32_t(p.spRows);
    case BY_REG_HW_ACC_ROWS:
      return uint32_t(p.accRows);
    case BY_REG_HW_FEATURES:
      return (p.hasWs ? 1u << BY_REG_HW_FEATURES_WS_SHIFT : 0u) |
             (p.hasOs ? 1u << BY_REG_HW_FEATURES_OS_SHIFT : 0u) |
             (p.boveda ? 1u << BY_REG_HW_FEATURES_BOVEDA_SHIFT : 0u);
    default:
      break;
    }
    if (offset >= BY_REG_CYCLES_LO && offset <= BY_REG_WINDOW_STALLS_HI) {
      if ((offset & 4u) == 0) { // LO: latch HI
        const uint64_t v = counter64(offset);
        latchedHi = uint32_t(v >> 32);
        return uint32_t(v);
      }
      return latchedHi;
    }
    return 0;
  }

  void write(uint32_t offset, uint32_t value) {
    switch (offset) {
    case BY_REG_ERROR:
      if ((value >> BY_REG_ERROR_CODE_SHIFT) & BY_REG_ERROR_CODE_MASK)
        model->clearError();
      break;
    case BY_REG_CMD_FUNCT:
      cmdFunct = value & 127u;
      break;
    case BY_REG_CMD_RS1_LO:
      cmdRs1 = (cmdRs1 & ~uint64_t(0xffffffffu)) | value;
      break;
    case BY_REG_CMD_RS1_HI:
      cmdRs1 = (cmdRs1 & 0xffffffffu) | (uint64_t(value) << 32);
      break;
    case BY_REG_CMD_RS2_LO:
      cmdRs2 = (cmdRs2 & ~uint64_t(0xffffffffu)) | value;
      break;
    case BY_REG_CMD_RS2_HI:
      cmdRs2 = (cmdRs2 & 0xffffffffu) | (uint64_t(value) << 32);
      break;
    case BY_REG_CMD_PUSH: {
      const uint64_t rd = execute(cmdFunct, cmdRs1, cmdRs2);
      if (cmdFunct == BY_FUNCT_COUNTER_OP) {
        resp = rd;
        respValid = true;
      }
      break;
    }
    case BY_REG_COUNTERS_RESET:
      if (value & 1u) {
        baseRead = model->dramBytesRead();
        baseWritten = model->dramBytesWritten();
        baseCommands = commandsAccepted;
      }
      break;
    default:
      break;
    }
  }
};

HostAccelerator& accel() {
  static HostAccelerator instance;
  return instance;
}

} // namespace

extern "C" {

void by_host_cmd(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  accel().execute(funct, rs1, rs2);
}

uint64_t by_host_cmd_rd(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  return accel().execute(funct, rs1, rs2);
}

uint32_t by_host_reg_read(uint32_t offset) {
  return accel().read(offset);
}

void by_host_reg_write(uint32_t offset, uint32_t value) {
  accel().write(offset, value);
}

uint64_t by_host_time_ns(void) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

uint64_t by_host_commands(uint32_t funct) {
  return accel().commandsByFunct[funct & 127u];
}

} // extern "C"
