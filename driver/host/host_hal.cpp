// The host HAL (BY_HAL_HOST, BY_HAL_HOST_MMIO): commands go to the functional ISA model
// (models/funcmodel), and the accelerator's control registers are the model's
// emulated register file (funcmodel/registers.h). Timing counters read 0.
//
// The model is built on first use from the YAML config named by BY_HOST_CONFIG_FILE, the same
// config whose generated headers the driver was compiled with; a mismatch between the two is
// reported and ends the program.
#include "brickyard_isa.h"
#include "brickyard_params.h"
#include "config/loader.h"
#include "funcmodel/func_model.h"
#include "funcmodel/registers.h"
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

// The emulated accelerator: one per process, like the hardware it stands for. The register
// file is the functional model's (funcmodel/registers.h), shared with the SoC's `--model func`.
struct HostAccelerator {
  by::config::Config config;
  by::driverhost::HostMemory memory;
  std::unique_ptr<FuncModel> model;
  std::unique_ptr<by::funcmodel::FuncRegisters> regs;

  HostAccelerator() {
    try {
      config = by::config::loadConfigFile(BY_HOST_CONFIG_FILE);
      model = std::make_unique<FuncModel>(config, memory);
      regs = std::make_unique<by::funcmodel::FuncRegisters>(*model);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "brickyard host driver: %s\n", e.what());
      std::exit(1);
    }
    const auto& p = model->params();
    if (p.dim != BY_DIM || p.spRows != BY_SP_ROWS || p.accRows != BY_ACC_ROWS ||
        p.inputWidth != BY_INPUT_WIDTH || p.accWidth != BY_ACC_WIDTH ||
        p.outputWidth != BY_SPATIAL_OUTPUT_WIDTH || p.maxBlockLen != BY_MAX_BLOCK_LEN ||
        p.maxBlockLenAcc != BY_MAX_BLOCK_LEN_ACC || p.hasWs != BY_HAS_WS || p.hasOs != BY_HAS_OS ||
        p.boveda != kHeaderBoveda || p.lanes != BY_LANES) {
      std::fprintf(stderr,
                   "brickyard host driver: %s does not match the headers the driver was built "
                   "with (config '%s')\n",
                   BY_HOST_CONFIG_FILE, BY_CONFIG_NAME);
      std::exit(1);
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
  accel().regs->execute(funct, rs1, rs2);
}

uint64_t by_host_cmd_rd(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  return accel().regs->execute(funct, rs1, rs2);
}

uint32_t by_host_reg_read(uint32_t offset) {
  return accel().regs->read(offset);
}

void by_host_reg_write(uint32_t offset, uint32_t value) {
  accel().regs->write(offset, value);
}

uint64_t by_host_time_ns(void) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

uint64_t by_host_commands(uint32_t funct) {
  return accel().regs->commandsByFunct(funct);
}

} // extern "C"
