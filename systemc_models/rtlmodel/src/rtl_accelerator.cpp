#include "rtl_accelerator.h"

#include "axi/dma_checker.h"
#include "hw/generators.h"
#include "hwspec/isa.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace by::rtlmodel {
namespace {

constexpr int kResetCycles = 4;
constexpr uint32_t kCounterBase = 0x100; // the 64-bit performance counters (docs/isa.md)

AxiSlaveBridge::Config bridgeConfig(const hw::DmaParams& dma, uint64_t periodPs) {
  AxiSlaveBridge::Config c;
  c.beatBytes = dma.beatBytes();
  c.maxBurst = dma.maxBurst;
  c.maxReads = dma.maxInflight;
  c.maxWrites = dma.maxWrites;
  c.periodPs = periodPs;
  return c;
}

axi::LiteCheckerConfig liteCheckerConfig() {
  axi::LiteCheckerConfig c;
  c.print = false;
  return c;
}

axi::LiteMasterConfig liteConfig() {
  axi::LiteMasterConfig c;
  c.maxDelay = 0; // a register access starts in the cycle it is issued
  c.readyPercent = 100;
  return c;
}

uint64_t periodPs(const config::Config& config) {
  // The SoC clock (soc/src/clock.h): 1e6 / clock_mhz ps, rounded.
  return (1'000'000ull + config.soc.clockMHz / 2) / config.soc.clockMHz;
}

std::string lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

RtlAccelerator::RtlAccelerator(const sc_core::sc_module_name& name, const config::Config& config,
                               const RtlOptions& options)
    : sc_core::sc_module(name), control("control"), dma("dma"), irq("irq"),
      periodPs_(periodPs(config)), library_(std::make_unique<ModelLibrary>(options.library)),
      model_(std::make_unique<ModelInstance>(*library_)),
      bridge_(bridgeConfig(hw::dmaParams(config), periodPs_), dma), lite_(liteConfig()),
      axiChecker_(axi::dmaCheckerConfig(hw::dmaParams(config)), "accelerator AXI4"),
      liteChecker_(liteCheckerConfig(), "accelerator AXI4-Lite"), gating_(options.clockGating) {
  control.register_b_transport(this, &RtlAccelerator::b_transport);
  const uint64_t quantumPs = tlm_utils::tlm_quantumkeeper::get_global_quantum().value();
  syncCycles_ = std::max<uint64_t>(1, quantumPs / periodPs_);
  if (!options.tracePath.empty()) {
    model_->openTrace(options.tracePath);
    tracing_ = true;
    traceFirst_ = options.traceFirstCycle;
    traceLast_ = options.traceLastCycle;
  }
  reset();
}

RtlAccelerator::~RtlAccelerator() = default;

void RtlAccelerator::reset() {
  // Reset with every input idle, as the system testbench does; these cycles come before
  // time 0 and are not traced.
  const bool tracing = tracing_;
  tracing_ = false;
  ports_.rstN = false;
  for (int i = 0; i < kResetCycles; ++i)
    model_->cycle(ports_, 0, periodPs_ / 2, false);
  ports_.rstN = true;
  tracing_ = tracing;
  // Two idle cycles settle the outputs and make the model quiet (see quiet()).
  for (int i = 0; i < 2; ++i)
    model_->cycle(ports_, 0, periodPs_ / 2, false);
  quietRun_ = ports_.busy || ports_.respValid ? 0 : 2;
  irqPublished_ = ports_.irq;
}

uint64_t RtlAccelerator::nowCycle(const sc_core::sc_time& delay) const {
  return (sc_core::sc_time_stamp() + delay).value() / periodPs_;
}

sc_core::sc_time RtlAccelerator::cycleTime() const {
  return sc_core::sc_time::from_value(cycle_ * periodPs_);
}

void RtlAccelerator::clock() {
  axi::Bus& bus = ports_.axi;
  bridge_.drive(bus, cycle_);
  lite_.drive(ports_.lite);
  const bool dump = tracing_ && cycle_ >= traceFirst_ && cycle_ <= traceLast_;
  model_->cycle(ports_, cycle_ * periodPs_, periodPs_ / 2, dump);
  axiChecker_.observe(bus, cycle_);
  liteChecker_.observe(ports_.lite, cycle_);
  checkProtocol();

  const axi::LiteBus& lite = ports_.lite;
  const bool handshake = bus.ar.fire() || bus.r.fire() || bus.aw.fire() || bus.w.fire() ||
                         bus.b.fire() || lite.aw.fire() || lite.w.fire() || lite.b.fire() ||
                         lite.ar.fire() || lite.r.fire() || (ports_.cmdValid && ports_.cmdReady) ||
                         (ports_.respValid && ports_.respReady);
  if (ports_.respValid && ports_.respReady) {
    response_ = ports_.respData;
    responsePending_ = false;
    ++roccResponses_;
  }
  if (ports_.cmdValid && ports_.cmdReady)
    ports_.cmdValid = false; // taken at this edge
  bridge_.tick(bus, cycle_);
  lite_.tick(lite);

  const bool inputsIdle = !ports_.cmdValid && !handshake && !lite.aw.valid && !lite.w.valid &&
                          !lite.ar.valid && !bus.r.valid && !bus.b.valid;
  const bool outputsIdle = !ports_.busy && !ports_.respValid && !bus.ar.valid && !bus.aw.valid &&
                           !bus.w.valid && !lite.b.valid && !lite.r.valid;
  quietRun_ = inputsIdle && outputsIdle && bridge_.idle() && lite_.idle() ? quietRun_ + 1 : 0;
  // Progress for the hang check: a handshake, the busy line moving, or nothing pending.
  if (handshake || quietRun_ > 0 || ports_.busy != lastBusy_)
    lastActivity_ = cycle_;
  lastBusy_ = ports_.busy;
  ++cycle_;
  ++clockedCycles_;
}

void RtlAccelerator::checkProtocol() {
  const uint64_t total = axiChecker_.violationCount() + liteChecker_.violationCount();
  if (total == checkedViolations_)
    return;
  checkedViolations_ = total;
  const auto& list =
      axiChecker_.violationCount() ? axiChecker_.violations() : liteChecker_.violations();
  std::string what = axiChecker_.violationCount() ? "AXI4 (memory port)" : "AXI4-Lite (registers)";
  std::string message = list.empty() ? std::string("(not recorded)")
                                     : list.back().channel + ": " + list.back().message;
  throw std::runtime_error("accelerator " + what + " protocol violation in cycle " +
                           std::to_string(cycle_) + ": " + message);
}

void RtlAccelerator::catchUp(const sc_core::sc_time& delay) {
  const uint64_t target = nowCycle(delay);
  if (target <= cycle_)
    return;
  const auto start = std::chrono::steady_clock::now();
  bool clocked = false;
  while (cycle_ < target) {
    if (gating_ && quiet()) { // nothing can change: skip the rest
      lastActivity_ = target;
      cycle_ = target;
      break;
    }
    clock();
    clocked = true;
    if (cycle_ - lastActivity_ > kHangCycles)
      throw std::runtime_error("the accelerator hung: no activity on its ports for " +
                               std::to_string(kHangCycles) + " cycles with work pending");
  }
  if (clocked)
    wallSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  publishIrq();
}

void RtlAccelerator::clockUntil(const char* what, const std::function<bool()>& done) {
  lastActivity_ = cycle_;
  while (!done()) {
    const auto start = std::chrono::steady_clock::now();
    const uint64_t syncAt = cycle_ + syncCycles_;
    while (!done() && cycle_ < syncAt) {
      clock();
      if (cycle_ - lastActivity_ > kHangCycles)
        throw std::runtime_error(std::string("the accelerator hung while the host waited for ") +
                                 what + ": no activity on its ports for " +
                                 std::to_string(kHangCycles) + " cycles");
    }
    wallSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    publishIrq();
    if (!done() && !ending_) {
      // A long wait: let the rest of the SoC (the cycle-limit watchdog) reach our time.
      const sc_core::sc_time now = sc_core::sc_time_stamp();
      if (cycleTime() > now)
        wait(cycleTime() - now);
    }
  }
}

void RtlAccelerator::publishIrq() {
  if (ending_ || ports_.irq == irqPublished_)
    return;
  irqPublished_ = ports_.irq;
  irq.write(irqPublished_);
  irqDelta_ = true;
}

void RtlAccelerator::finishCall(sc_core::sc_time& delay, const sc_core::sc_time& arrived) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time done = std::max(cycleTime(), arrived);
  delay = done > now ? done - now : sc_core::SC_ZERO_TIME;
  if (irqDelta_) {
    // The signal takes its new value in the update phase: one delta, so that the host's
    // next read of the irq status register sees it.
    irqDelta_ = false;
    wait(sc_core::SC_ZERO_TIME);
  }
}

uint64_t RtlAccelerator::rocc(const soc::RoccCommand& command, sc_core::sc_time& delay) {
  const sc_core::sc_time arrived = sc_core::sc_time_stamp() + delay;
  catchUp(delay);
  ++roccCommands_;
  ports_.cmdValid = true;
  ports_.cmdFunct = command.funct7;
  ports_.cmdRs1 = command.rs1Value;
  ports_.cmdRs2 = command.rs2Value;
  ports_.cmdXd = command.xd;
  responsePending_ = command.xd;
  clockUntil("the command port (cmd_ready)", [&] { return !ports_.cmdValid; });
  if (command.xd)
    clockUntil("a RoCC response", [&] { return !responsePending_; });
  finishCall(delay, arrived);
  return command.xd ? response_ : 0;
}

void RtlAccelerator::waitIdle(sc_core::sc_time& delay) {
  const sc_core::sc_time arrived = sc_core::sc_time_stamp() + delay;
  catchUp(delay);
  clockUntil("the accelerator to become idle (fence)", [&] { return quiet(); });
  finishCall(delay, arrived);
}

void RtlAccelerator::hostSync(const sc_core::sc_time& delay) {
  catchUp(delay);
}

bool RtlAccelerator::registerAccess(bool write, uint32_t offset, uint32_t& data) {
  lite_.results().clear();
  if (write)
    lite_.write(offset, data);
  else
    lite_.read(offset);
  clockUntil(write ? "a control register write" : "a control register read",
             [&] { return lite_.idle(); });
  const axi::LiteResult r = lite_.results().back();
  lite_.results().clear();
  if (!write)
    data = r.data;
  return r.resp == axi::kOkay;
}

void RtlAccelerator::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t offset = p.get_address();
  if (p.get_data_length() != 4 || offset % 4 != 0 || p.get_byte_enable_ptr()) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const sc_core::sc_time arrived = sc_core::sc_time_stamp() + delay;
  catchUp(delay);
  uint32_t data = 0;
  if (p.is_write())
    std::memcpy(&data, p.get_data_ptr(), 4);
  ++(p.is_write() ? registerWrites_ : registerReads_);
  const bool ok = registerAccess(p.is_write(), static_cast<uint32_t>(offset), data);
  if (p.is_read())
    std::memcpy(p.get_data_ptr(), &data, 4);
  p.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
  finishCall(delay, arrived);
}

void RtlAccelerator::end_of_simulation() {
  // The performance counters, read through the registers as a program would, once the run is
  // over (no SystemC time passes). Only when idle: a busy accelerator would move data. The
  // cycles this takes are not part of the run and are not counted.
  const uint64_t clocked = clockedCycles_, cycles = cycle_;
  const double wall = wallSeconds_;
  ending_ = true; // no wait() outside a process
  try {
    // The host may have ended right after an access, before the outputs settled.
    for (int i = 0; i < 4 && !quiet() && !ports_.busy && lite_.idle() && !ports_.cmdValid; ++i)
      clock();
    const bool idle = quiet();
    for (const hw::isa::Register& r : hw::isa::registers()) {
      const std::string& n = r.name;
      if (!idle)
        break;
      if (r.offset < kCounterBase || n.size() < 3 || n.compare(n.size() - 3, 3, "_LO") != 0)
        continue;
      uint32_t lo = 0, hi = 0;
      if (!registerAccess(false, r.offset, lo) || !registerAccess(false, r.offset + 4, hi))
        break;
      rtlCounters_.push_back(
          {lower(n.substr(0, n.size() - 3)), lo | (static_cast<uint64_t>(hi) << 32)});
    }
  } catch (const std::exception&) {
    rtlCounters_.clear(); // the run already ended; report what the wrapper counted
  }
  clockedCycles_ = clocked;
  cycle_ = cycles;
  wallSeconds_ = wall;
}

std::vector<soc::AcceleratorCounter> RtlAccelerator::counters() const {
  const AxiSlaveBridge::Stats& b = bridge_.stats();
  std::vector<soc::AcceleratorCounter> c = {
      {"gated_cycles", cycle_ - std::min(cycle_, clockedCycles_)},
      {"rocc_commands", roccCommands_},
      {"rocc_responses", roccResponses_},
      {"register_reads", registerReads_},
      {"register_writes", registerWrites_},
      {"axi_read_bursts", b.readBursts},
      {"axi_write_bursts", b.writeBursts},
      {"axi_read_bytes", b.readBytes},
      {"axi_write_bytes", b.writeBytes},
      {"axi_error_responses", b.errorResponses},
      {"axi_protocol_violations", axiChecker_.violationCount()},
      {"axi_lite_protocol_violations", liteChecker_.violationCount()},
  };
  c.insert(c.end(), rtlCounters_.begin(), rtlCounters_.end());
  return c;
}

soc::ModelActivity RtlAccelerator::activity() const {
  return {clockedCycles_, wallSeconds_};
}

soc::AcceleratorFactory rtlAcceleratorFactory(const RtlOptions& options) {
  return [options](const config::Config& config) -> std::unique_ptr<soc::AcceleratorDevice> {
    return std::make_unique<RtlAccelerator>("accelerator", config, options);
  };
}

} // namespace by::rtlmodel
