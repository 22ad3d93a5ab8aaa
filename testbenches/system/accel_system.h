// The system testbench around the Verilated by_accelerator: an AXI4 memory model with random
// latency and back-pressure on its master port, AXI4 and AXI4-Lite protocol checkers on both
// buses, an AXI4-Lite master for the registers and a RoCC driver for commands, all stepped
// together one clock cycle at a time. Commands go in program order through the RoCC port or,
// when asked, through the CMD_* registers; the harness waits for a path's acceptance before
// switching paths, so the accelerator sees exactly the program's order.
//
// A watchdog bounds every wait: a hang becomes a test failure with the harness state, never a
// CI timeout. Include from a test compiled with BY_MODEL / BY_MODEL_HEADER (by_add_system_test).
#pragma once

#include "axi/axi_checker.h"
#include "axi/axi_lite.h"
#include "axi/axi_memory.h"
#include "axi/axi_verilator.h"
#include "config/config.h"
#include "funcmodel/program.h"
#include "hw/generators.h"
#include "hwspec/isa.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <verilated.h>

#include BY_MODEL_HEADER
#if BY_MODEL_TRACE
#include <verilated_vcd_c.h>
#endif

namespace by::test {

struct SystemOptions {
  uint64_t memBase = 0x80000000ull;
  uint64_t memSize = 1 << 20;
  bool stress = true;        // random latency, back-pressure and gaps on the AXI4 memory
  int fixedLatency = 0;      // without stress: every transaction's latency in cycles
  int bytesPerCycle = 0;     // without stress: DRAM bandwidth limit (axi::MemoryConfig), 0 none
  bool oldestFirst = false;  // without stress: reads answered in order (axi::MemoryConfig)
  int mmioPercent = 0;       // share of commands pushed through the CMD_* registers
  int respReadyPercent = 80; // chance per cycle that the RoCC response is taken
  uint64_t seed = 1;
  uint64_t watchdogCycles = 200000; // cycles without progress that count as a hang
  /// Wait for the accelerator to go idle before each COUNTER_OP (as a host fences before
  /// reading counters), so that byte counters read a defined value.
  bool fenceCounterOps = true;
  /// VCD waveform of the whole run (models built with BY_MODEL_TRACE only; else ignored).
  std::string tracePath;
};

/// A COUNTER_OP result as the host received it.
struct Response {
  size_t command = 0; // index in the issue order
  uint64_t data = 0;
};

class AccelSystem {
public:
  AccelSystem(const config::Config& config, const SystemOptions& options);
  ~AccelSystem();

  /// Queues a command (its path is drawn from mmioPercent).
  void issue(const funcmodel::Instruction& instr);
  /// Runs until every queued command was accepted, the accelerator is idle, the AXI memory has
  /// no transaction open and every response arrived. False on a hang (see hangReport()).
  bool drain();
  /// Runs `cycles` clock cycles (commands keep flowing); false on a hang.
  bool run(uint64_t cycles);
  /// Register access through the AXI4-Lite master (waits for the response). Only while
  /// drained (the harness does not interleave register and command traffic by design).
  uint32_t readRegister(const std::string& name);
  void writeRegister(const std::string& name, uint32_t value);
  /// A 64-bit performance counter by its name without _LO/_HI (reads LO, which latches HI).
  uint64_t readCounter(const std::string& name);

  axi::Memory& memory() { return *memory_; }
  const std::deque<Response>& responses() const { return responses_; }
  uint64_t cycle() const { return cycle_; }
  uint64_t commandsIssued() const { return issued_; }
  bool irq() const { return dut_->irq_o; }
  /// Every command accepted and the accelerator idle.
  bool idle() const { return queue_.empty() && !rocc_ && !mmio_ && !dut_->busy_o; }

  /// Both protocol checkers clean, every register access answered OKAY, no stray RoCC
  /// response (call after finish()).
  bool protocolClean() const;
  std::string protocolReport() const;
  /// End of test: the checkers flag anything still outstanding.
  void finish();
  const std::string& hangReport() const { return hang_; }

  /// Memory helpers.
  void writeBytes(uint64_t addr, const std::vector<uint8_t>& bytes);
  std::vector<uint8_t> readBytes(uint64_t addr, size_t n) const;

private:
  struct Pending {
    funcmodel::Instruction instr;
    bool mmio = false;
    size_t index = 0;
  };
  enum class MmioStage { Push, Poll, Response };
  void step();
  void startNext();
  void advanceMmio();
  bool waitFor(const std::string& what, const std::function<bool()>& done);

  SystemOptions opt_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<BY_MODEL> dut_;
#if BY_MODEL_TRACE
  std::unique_ptr<VerilatedVcdC> trace_;
#endif
  void evalAndDump(uint64_t time);
  std::unique_ptr<axi::Memory> memory_;
  std::unique_ptr<axi::Checker> axiChecker_;
  std::unique_ptr<axi::LiteChecker> liteChecker_;
  std::unique_ptr<axi::LiteMaster> lite_;
  axi::Bus bus_;
  axi::LiteBus liteBus_;
  axi::Rng rng_;

  std::deque<Pending> queue_;   // commands not yet started
  std::optional<Pending> rocc_; // on the RoCC port, waiting for ready
  std::optional<Pending> mmio_; // being pushed through the registers
  MmioStage mmioStage_ = MmioStage::Push;
  std::deque<size_t> awaitingResp_; // RoCC commands whose response is due, in order
  std::deque<Response> responses_;
  uint64_t cycle_ = 0;
  uint64_t issued_ = 0;
  uint64_t lastProgress_ = 0; // the last cycle anything moved (watchdog)
  bool lastBusy_ = false;
  uint64_t registerErrors_ = 0;
  uint64_t unexpectedResponses_ = 0;
  std::string hang_;
};

} // namespace by::test
