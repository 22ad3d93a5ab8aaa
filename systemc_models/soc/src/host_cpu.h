// The host CPU: an RV64IMAFDC hart emulated by Unicorn, running one SC_THREAD.
//
// Timing: each instruction costs host_cpi_tenths/10 clock periods. The thread runs Unicorn
// in batches bounded by the TLM quantum (temporal decoupling): a per-instruction code hook
// counts instructions and stops the batch when the CPU's local time reaches the next sync
// point (or the --max-cycles limit); then the quantum keeper syncs with SystemC.
//
// Memory: DRAM is the DRAM model's backing store mapped into Unicorn (uc_mem_map_ptr), so
// host loads/stores are direct and untimed beyond the CPI. Every other attached region is
// an MMIO mapping whose callbacks become b_transport calls on `bus`, annotated with the
// CPU's local time (instructions executed so far in the quantum, up to and including the
// accessing one). Callbacks run inside uc_emu_start on this thread's stack, so targets may
// wait(); nothing else touches the Unicorn engine.
//
// Traps: an illegal-instruction trap whose instruction is custom-3 becomes a RoCC command
// (decode, read rs1/rs2, AcceleratorDevice::rocc(), write rd if xd). A RISC-V `fence`
// waits for the accelerator to become idle (AcceleratorDevice::waitIdle()), like Rocket's
// fence waits for RoCC. Anything else (other illegal instructions, ecall, ebreak,
// unmapped accesses, bus errors) is a guest fault that ends the run.
#pragma once

#include "clock.h"
#include "run_control.h"
#include "soc/accelerator.h"
#include "soc_core/memory_map.h"

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <unicorn/unicorn.h>
#include <vector>

namespace by::soc {

struct HostCpuStats {
  uint64_t instructions = 0; // executed (retired) instructions
  uint64_t mmioReads = 0;
  uint64_t mmioWrites = 0;
  uint64_t roccCommands = 0;
  uint64_t fences = 0;       // fences that waited for the accelerator
  uint64_t batches = 0;      // uc_emu_start calls
  uint64_t quantumSyncs = 0; // waits to resynchronise with SystemC
};

class HostCpu : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<HostCpu> bus;

  struct Setup {
    const MemoryMap* map = nullptr;
    const Clock* clock = nullptr;
    int cpiTenths = 10;
    uint8_t* dram = nullptr;           // backing store of the Dram region
    std::vector<RegionId> mmioRegions; // regions with a device behind the router
    AcceleratorDevice* accelerator = nullptr;
    sc_core::sc_time timeLimit; // SC_ZERO_TIME: none
    RunControl* control = nullptr;
  };

  HostCpu(const sc_core::sc_module_name& name, const Setup& setup);
  HostCpu(const HostCpu&) = delete;
  HostCpu& operator=(const HostCpu&) = delete;

  void setEntry(uint64_t pc) { pc_ = pc; }
  HostCpuStats stats() const {
    HostCpuStats s = stats_;
    s.instructions = executed_;
    return s;
  }
  /// Simulated time of the CPU (kernel time plus its local time ahead).
  sc_core::sc_time currentTime() const { return quantum_.get_current_time(); }
  /// What the CPU was blocked on, if anything (for stall reports).
  const std::string& blockedOn() const { return blockedOn_; }
  uint64_t lastPc() const { return lastPc_; }

private:
  SC_HAS_PROCESS(HostCpu);

  // Exposes how far the next sync point is, to size instruction batches.
  class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
  public:
    sc_core::sc_time untilSync() const {
      const sc_core::sc_time now = get_current_time();
      return m_next_sync_point > now ? m_next_sync_point - now : sc_core::SC_ZERO_TIME;
    }
  };

  struct MmioWindow {
    HostCpu* cpu;
    const Region* region;
  };
  struct UcClose {
    void operator()(uc_engine* uc) const { uc_close(uc); }
  };

  void run();
  /// Adds the instructions executed since the last call to the local time.
  void accountInstructions();
  /// Recomputes the instruction budget of the running batch (after time changed).
  void updateBudget();
  /// Syncs with SystemC if the local time reached the quantum's end.
  void syncIfNeeded();
  void fault(const std::string& message);
  void stopEmulation();

  uint64_t mmioAccess(const Region& region, uint64_t offset, unsigned size, bool write,
                      uint64_t value);
  void onInstruction(uint64_t address, uint32_t size);
  void onTrap(uint32_t cause);
  void onRocc(const RoccCommand& decoded);
  void onFence();
  void recordInvalidAccess(uc_mem_type type, uint64_t address, int size);
  std::string describeUnicornError(uc_err err) const;
  std::string where() const; // " at pc 0x..."

  // Unicorn's C callbacks; they never let an exception escape into the emulator.
  static void codeHook(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static void trapHook(uc_engine* uc, uint32_t cause, void* self);
  static bool invalidHook(uc_engine* uc, uc_mem_type type, uint64_t address, int size,
                          int64_t value, void* self);
  static uint64_t mmioReadHook(uc_engine* uc, uint64_t offset, unsigned size, void* window);
  static void mmioWriteHook(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value,
                            void* window);

  const MemoryMap& map_;
  const Clock& clock_;
  const Region& dram_;
  uint8_t* dramData_;
  AcceleratorDevice* accelerator_;
  RunControl& control_;
  const uint64_t instructionPs_; // CPI x clock period
  const sc_core::sc_time timeLimit_;

  std::unique_ptr<uc_engine, UcClose> uc_;
  std::vector<MmioWindow> windows_;
  QuantumKeeper quantum_;
  HostCpuStats stats_;

  uint64_t pc_ = 0;
  uint64_t executed_ = 0;  // instructions started (counted by the code hook)
  uint64_t accounted_ = 0; // instructions already added to the local time
  uint64_t budgetEnd_ = 0; // the code hook stops the batch when executed_ reaches this
  bool stopping_ = false;
  uint64_t lastPc_ = 0;      // address of the instruction being executed
  std::string faultMessage_; // a fault found inside a callback, reported after the batch
  struct {
    bool valid = false;
    uc_mem_type type{};
    uint64_t address = 0;
    int size = 0;
  } invalid_;
  std::string blockedOn_;
};

} // namespace by::soc
