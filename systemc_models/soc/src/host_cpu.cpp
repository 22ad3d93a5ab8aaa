#include "host_cpu.h"

#include "soc_core/format.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace by::soc {
namespace {

// Unicorn runs on the SC_THREAD's own stack (translation and execution); give it room.
constexpr std::size_t kThreadStackBytes = 16u << 20;

// RISC-V exception causes that reach the trap hook (mcause values).
constexpr uint32_t kCauseIllegalInstruction = 2;

// `fence` (MISC-MEM opcode, funct3 0); fence.i (funct3 1) does not wait for the accelerator.
constexpr uint32_t kFenceMask = 0x707f;
constexpr uint32_t kFenceMatch = 0x000f;

const char* trapName(uint32_t cause) {
  switch (cause) {
  case 0:
    return "misaligned instruction fetch";
  case 1:
    return "instruction access fault";
  case 3:
    return "breakpoint (ebreak)";
  case 4:
    return "misaligned load";
  case 5:
    return "load access fault";
  case 6:
    return "misaligned store";
  case 7:
    return "store access fault";
  case 8: // Unicorn reports every ecall as cause 8, whatever the privilege mode
  case 9:
  case 11:
    return "environment call (ecall; there is no OS or semihosting)";
  default:
    return nullptr;
  }
}

const char* responseProblem(tlm::tlm_response_status status, bool write) {
  switch (status) {
  case tlm::TLM_ADDRESS_ERROR_RESPONSE:
    return "no register at this address";
  case tlm::TLM_COMMAND_ERROR_RESPONSE:
    return write ? "the register is read-only" : "the register is write-only";
  case tlm::TLM_BURST_ERROR_RESPONSE:
    return "unsupported access size or alignment (device registers are aligned 32-bit words)";
  case tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE:
    return "byte enables are not supported";
  default:
    return "the device reported an error";
  }
}

} // namespace

HostCpu::HostCpu(const sc_core::sc_module_name& name, const Setup& setup)
    : sc_core::sc_module(name), bus("bus"), map_(*setup.map), clock_(*setup.clock),
      dram_(setup.map->region(RegionId::Dram)), dramData_(setup.dram),
      accelerator_(setup.accelerator), control_(*setup.control),
      instructionPs_((setup.clock->periodPs() * static_cast<uint64_t>(setup.cpiTenths) + 5) / 10),
      timeLimit_(setup.timeLimit) {
  if (instructionPs_ == 0)
    throw std::invalid_argument("host CPI x clock period rounds to 0 ps");
  uc_engine* uc = nullptr;
  const uc_err err = uc_open(UC_ARCH_RISCV, UC_MODE_RISCV64, &uc);
  if (err != UC_ERR_OK)
    throw std::runtime_error(std::string("cannot start the Unicorn RISC-V engine: ") +
                             uc_strerror(err));
  uc_.reset(uc);
  auto check = [&](uc_err e, const std::string& what) {
    if (e != UC_ERR_OK)
      throw std::runtime_error("Unicorn: " + what + ": " + uc_strerror(e));
  };
  // No exit addresses: batches end only by our hooks (uc_emu_start's `until` would otherwise
  // make a jump to that address look like a normal stop).
  check(uc_ctl_exits_enable(uc_.get()), "disabling exit addresses");
  check(uc_mem_map_ptr(uc_.get(), dram_.base, dram_.size, UC_PROT_ALL, dramData_), "mapping DRAM");
  windows_.reserve(setup.mmioRegions.size()); // the hooks keep pointers into it
  for (RegionId id : setup.mmioRegions) {
    windows_.push_back({this, &map_.region(id)});
    MmioWindow& w = windows_.back();
    check(uc_mmio_map(uc_.get(), w.region->base, w.region->size, &HostCpu::mmioReadHook, &w,
                      &HostCpu::mmioWriteHook, &w),
          std::string("mapping ") + w.region->name);
  }
  uc_hook hook;
  check(uc_hook_add(uc_.get(), &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&HostCpu::codeHook),
                    this, 1, 0),
        "adding the instruction hook");
  check(uc_hook_add(uc_.get(), &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&HostCpu::trapHook),
                    this, 1, 0),
        "adding the trap hook");
  check(uc_hook_add(uc_.get(), &hook, UC_HOOK_MEM_INVALID,
                    reinterpret_cast<void*>(&HostCpu::invalidHook), this, 1, 0),
        "adding the invalid-access hook");

  SC_THREAD(run);
  set_stack_size(kThreadStackBytes);
}

void HostCpu::run() {
  quantum_.reset();
  while (!control_.ended()) {
    if (timeLimit_ != sc_core::SC_ZERO_TIME && currentTime() >= timeLimit_) {
      control_.end(SimEnd::Timeout, 0, "the cycle limit was reached (pc " + hex(lastPc_) + ")",
                   timeLimit_);
      break;
    }
    updateBudget();
    stopping_ = false;
    ++stats_.batches;
    const uc_err err = uc_emu_start(uc_.get(), pc_, 0, 0, 0);
    uc_reg_read(uc_.get(), UC_RISCV_REG_PC, &pc_);
    accountInstructions();
    if (!faultMessage_.empty()) {
      control_.end(SimEnd::Fault, 0, faultMessage_, currentTime());
      break;
    }
    if (err != UC_ERR_OK) {
      control_.end(SimEnd::Fault, 0, describeUnicornError(err), currentTime());
      break;
    }
    syncIfNeeded();
    if (!faultMessage_.empty()) { // from the accelerator's hostSync()
      control_.end(SimEnd::Fault, 0, faultMessage_, currentTime());
      break;
    }
  }
  // A model that runs on this thread catches up with the program's end, so that its
  // statistics cover the whole run.
  if (accelerator_ && control_.how() == SimEnd::Exit) {
    try {
      accelerator_->hostSync(quantum_.get_local_time());
    } catch (const std::exception&) {
      // The run is over; the model's statistics simply end earlier.
    }
  }
}

void HostCpu::accountInstructions() {
  if (executed_ == accounted_)
    return;
  quantum_.inc(Clock::picoseconds((executed_ - accounted_) * instructionPs_));
  accounted_ = executed_;
}

void HostCpu::updateBudget() {
  // Enough instructions to reach (or just pass) the next sync point.
  const uint64_t untilSyncPs = Clock::toPs(quantum_.untilSync());
  uint64_t n = std::max<uint64_t>(1, (untilSyncPs + instructionPs_ - 1) / instructionPs_);
  if (timeLimit_ != sc_core::SC_ZERO_TIME) {
    const sc_core::sc_time now = currentTime();
    const uint64_t leftPs = now < timeLimit_ ? Clock::toPs(timeLimit_ - now) : 0;
    n = std::min(n, (leftPs + instructionPs_ - 1) / instructionPs_);
  }
  budgetEnd_ = executed_ + n;
}

void HostCpu::syncIfNeeded() {
  if (quantum_.need_sync()) {
    ++stats_.quantumSyncs;
    if (accelerator_) {
      // A model advanced on this thread catches up before the host yields.
      try {
        accelerator_->hostSync(quantum_.get_local_time());
      } catch (const std::exception& e) {
        fault(std::string("accelerator: ") + e.what());
        return;
      }
    }
    quantum_.sync();
  }
}

void HostCpu::stopEmulation() {
  stopping_ = true;
  uc_emu_stop(uc_.get());
}

void HostCpu::fault(const std::string& message) {
  if (faultMessage_.empty()) {
    // One line: messages from models (e.g. SystemC reports) may span several.
    std::string line;
    for (char c : message)
      if (c == '\n') {
        if (!line.empty() && line.back() != ' ')
          line += "; ";
      } else {
        line += c;
      }
    while (!line.empty() && (line.back() == ' ' || line.back() == ';'))
      line.pop_back();
    faultMessage_ = line + where();
  }
  stopEmulation();
}

std::string HostCpu::where() const {
  return " at pc " + hex(lastPc_);
}

// --- instruction hook: counting, batch bounds, fences ---------------------------------

void HostCpu::codeHook(uc_engine*, uint64_t address, uint32_t size, void* self) {
  auto* cpu = static_cast<HostCpu*>(self);
  if (cpu->executed_ >= cpu->budgetEnd_ || cpu->stopping_) {
    // Stopping here means this instruction has not run; the next batch starts with it.
    uc_emu_stop(cpu->uc_.get());
    return;
  }
  ++cpu->executed_;
  cpu->lastPc_ = address;
  if (cpu->accelerator_ && size == 4) {
    const uint64_t offset = address - cpu->dram_.base;
    uint32_t insn = 0;
    if (offset <= cpu->dram_.size - 4)
      std::memcpy(&insn, cpu->dramData_ + offset, 4);
    if ((insn & kFenceMask) == kFenceMatch) {
      try {
        cpu->onFence();
      } catch (const std::exception& e) {
        cpu->fault(std::string("fence: ") + e.what());
      }
    }
  }
}

void HostCpu::onFence() {
  ++stats_.fences;
  accountInstructions();
  blockedOn_ = "a fence (waiting for the accelerator to become idle)";
  sc_core::sc_time delay = quantum_.get_local_time();
  accelerator_->waitIdle(delay);
  quantum_.set(delay);
  blockedOn_.clear();
  syncIfNeeded();
  updateBudget();
}

// --- traps: RoCC and faults ----------------------------------------------------------

void HostCpu::trapHook(uc_engine*, uint32_t cause, void* self) {
  auto* cpu = static_cast<HostCpu*>(self);
  try {
    if (cause != kCauseIllegalInstruction) {
      const char* name = trapName(cause);
      cpu->fault(name ? name : "unexpected trap (cause " + std::to_string(cause) + ")");
      return;
    }
    // The hook's instruction size is not valid for a trapping instruction; the RISC-V
    // length encoding is (low bits 11: 32-bit, else 16-bit).
    uint32_t insn = 0;
    const uint64_t offset = cpu->lastPc_ - cpu->dram_.base;
    if (offset <= cpu->dram_.size - 4)
      std::memcpy(&insn, cpu->dramData_ + offset, 4);
    const bool wide = (insn & 0x3) == 0x3;
    if (!wide)
      insn &= 0xffff;
    const auto rocc = wide ? decodeRocc(insn) : std::nullopt;
    if (!rocc) {
      char text[96];
      std::snprintf(text, sizeof text, "illegal instruction 0x%0*x", wide ? 8 : 4, insn);
      cpu->fault(text);
      return;
    }
    cpu->onRocc(*rocc);
  } catch (const std::exception& e) {
    cpu->fault(std::string("RoCC: ") + e.what());
  }
}

void HostCpu::onRocc(const RoccCommand& decoded) {
  if (!accelerator_) {
    fault("RoCC instruction (custom-3, funct7 " + std::to_string(decoded.funct7) +
          ") but this SoC has no accelerator");
    return;
  }
  RoccCommand command = decoded;
  command.pc = lastPc_;
  // UC_RISCV_REG_X0..X31 are consecutive.
  if (command.xs1)
    uc_reg_read(uc_.get(), UC_RISCV_REG_X0 + static_cast<int>(command.rs1), &command.rs1Value);
  if (command.xs2)
    uc_reg_read(uc_.get(), UC_RISCV_REG_X0 + static_cast<int>(command.rs2), &command.rs2Value);
  ++stats_.roccCommands;
  accountInstructions();
  blockedOn_ = "RoCC command funct7 " + std::to_string(command.funct7);
  sc_core::sc_time delay = quantum_.get_local_time();
  const uint64_t response = accelerator_->rocc(command, delay);
  quantum_.set(delay);
  blockedOn_.clear();
  if (command.xd && command.rd != 0)
    uc_reg_write(uc_.get(), UC_RISCV_REG_X0 + static_cast<int>(command.rd), &response);
  syncIfNeeded();
  updateBudget();
}

// --- memory --------------------------------------------------------------------------

uint64_t HostCpu::mmioReadHook(uc_engine*, uint64_t offset, unsigned size, void* window) {
  auto* w = static_cast<MmioWindow*>(window);
  return w->cpu->mmioAccess(*w->region, offset, size, false, 0);
}

void HostCpu::mmioWriteHook(uc_engine*, uint64_t offset, unsigned size, uint64_t value,
                            void* window) {
  auto* w = static_cast<MmioWindow*>(window);
  w->cpu->mmioAccess(*w->region, offset, size, true, value);
}

uint64_t HostCpu::mmioAccess(const Region& region, uint64_t offset, unsigned size, bool write,
                             uint64_t value) {
  if (stopping_)
    return 0;
  try {
    accountInstructions();
    ++(write ? stats_.mmioWrites : stats_.mmioReads);
    uint64_t data = value; // little-endian host and guest: the low `size` bytes
    tlm::tlm_generic_payload payload;
    payload.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    payload.set_address(region.base + offset);
    payload.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    payload.set_data_length(size);
    payload.set_streaming_width(size);
    payload.set_byte_enable_ptr(nullptr);
    payload.set_dmi_allowed(false);
    payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    blockedOn_ = std::string("an MMIO ") + (write ? "write to " : "read of ") + region.name;
    sc_core::sc_time delay = quantum_.get_local_time();
    bus->b_transport(payload, delay);
    quantum_.set(delay);
    blockedOn_.clear();
    if (payload.is_response_error()) {
      fault("bus error: " + std::to_string(size) + "-byte " + (write ? "write to " : "read of ") +
            hex(region.base + offset) + " (" + region.name + "+" + hex(offset) +
            "): " + responseProblem(payload.get_response_status(), write));
      return 0;
    }
    if (control_.ended()) { // e.g. the exit device
      stopEmulation();
      return data;
    }
    syncIfNeeded();
    updateBudget();
    return data;
  } catch (const std::exception& e) {
    fault(std::string("MMIO ") + region.name + ": " + e.what());
    return 0;
  }
}

bool HostCpu::invalidHook(uc_engine*, uc_mem_type type, uint64_t address, int size, int64_t,
                          void* self) {
  auto* cpu = static_cast<HostCpu*>(self);
  cpu->invalid_ = {true, type, address, size};
  return false; // stop: uc_emu_start returns the matching error
}

std::string HostCpu::describeUnicornError(uc_err err) const {
  if (!invalid_.valid)
    return std::string("emulation error: ") + uc_strerror(err) + where();
  std::string what;
  switch (invalid_.type) {
  case UC_MEM_FETCH_UNMAPPED:
  case UC_MEM_FETCH_PROT:
    what = "instruction fetch from " + hex(invalid_.address) + " (jumped there from pc " +
           hex(lastPc_) + ")";
    break;
  case UC_MEM_WRITE_UNMAPPED:
  case UC_MEM_WRITE_PROT:
    what = std::to_string(invalid_.size) + "-byte store to " + hex(invalid_.address) + where();
    break;
  default:
    what = std::to_string(invalid_.size) + "-byte load from " + hex(invalid_.address) + where();
    break;
  }
  const Region* region = map_.find(invalid_.address);
  if (!region)
    return "access outside the memory map: " + what + " (see docs/soc.md)";
  if (region->id == RegionId::AccelControl)
    return "access to the accelerator control window, but this SoC has no accelerator: " + what;
  return std::string("access to ") + region->name + ", which has no device attached: " + what;
}

} // namespace by::soc
