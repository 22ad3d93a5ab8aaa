#include "soc/platform.h"

#include "memory_ops.h"
#include "soc/elf.h"
#include "soc_core/format.h"
#include "soc_top.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

// libsystemc defines main() and needs an sc_main() to link. Brickyard never uses that
// main(): the simulator is elaborated and started by runSimulation() below.
int sc_main(int, char*[]) {
  std::fprintf(stderr, "brickyard: internal error: SystemC's main() is not used\n");
  return 1;
}

namespace by::soc {
namespace {

// stdout belongs to the program's console: send SystemC's own reports to stderr and keep
// its banner and "stopped by user" note out of it.
void reportToStderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY)
    std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

void configureSystemC() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_core::sc_report_handler::set_handler(reportToStderr);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

const char* endName(SimEnd end) {
  switch (end) {
  case SimEnd::Exit:
    return "exit";
  case SimEnd::Timeout:
    return "timeout";
  case SimEnd::Fault:
    return "fault";
  }
  return "?";
}

nlohmann::json statsJson(const SimOptions& options, const SimResult& result, const SocTop& soc,
                         const Clock& clock, const sc_core::sc_time& quantum,
                         const sc_core::sc_time& endTime, double wallSeconds) {
  const HostCpuStats cpu = soc.cpu().stats();
  const uint64_t cycles = clock.cyclesAt(endTime);
  const double wall = wallSeconds > 0 ? wallSeconds : 1e-9;
  nlohmann::json j;
  j["program"] = options.programPath;
  j["config"] = options.config.name;
  j["end"] = {
      {"reason", endName(result.end)}, {"exit_code", result.exitCode}, {"message", result.message}};
  j["clock_mhz"] = clock.mhz();
  j["quantum_ns"] = Clock::toPs(quantum) / 1000.0;
  j["simulated"] = {{"cycles", cycles}, {"time_ns", Clock::toPs(endTime) / 1000.0}};
  j["wall"] = {{"seconds", wallSeconds},
               {"simulated_cycles_per_second", cycles / wall},
               {"host_instructions_per_second", cpu.instructions / wall}};
  j["host"] = {{"instructions", cpu.instructions},
               {"cpi", options.config.soc.hostCpiTenths / 10.0},
               {"mmio_reads", cpu.mmioReads},
               {"mmio_writes", cpu.mmioWrites},
               {"rocc_commands", cpu.roccCommands},
               {"fences", cpu.fences},
               {"batches", cpu.batches},
               {"quantum_syncs", cpu.quantumSyncs}};
  nlohmann::json initiators = nlohmann::json::object();
  const auto& names = soc.router().initiatorNames();
  for (size_t i = 0; i < names.size(); ++i) {
    const Traffic t = soc.router().traffic(i, RegionId::Dram);
    initiators[names[i]] = {{"bytes_read", t.bytesRead},
                            {"bytes_written", t.bytesWritten},
                            {"transactions", t.transactions}};
  }
  j["dram"] = {{"size_mib", options.config.soc.dram.sizeMiB},
               {"latency_cycles", options.config.soc.dram.latencyCycles},
               {"bytes_per_cycle", options.config.soc.dram.bytesPerCycle},
               {"bytes_read", soc.dram().bytesRead()},
               {"bytes_written", soc.dram().bytesWritten()},
               {"busy_cycles", soc.dram().busyCycles()},
               {"initiators", initiators}};
  j["uart"] = {{"bytes", soc.uart().bytesWritten()}};
  if (const AcceleratorDevice* accel = soc.accelerator()) {
    nlohmann::json counters = nlohmann::json::object();
    for (const AcceleratorCounter& c : accel->counters())
      counters[c.name] = c.value;
    const ModelActivity activity = accel->activity();
    j["accelerator"] = {
        {"kind", accel->modelKind()},
        {"interrupts", soc.irq().acceleratorRisingEdges()},
        {"clocked_cycles", activity.clockedCycles},
        {"wall_seconds", activity.wallSeconds},
        {"clocked_cycles_per_second",
         activity.wallSeconds > 0 ? activity.clockedCycles / activity.wallSeconds : 0.0},
        {"counters", counters}};
  } else {
    j["accelerator"] = nullptr;
  }
  return j;
}

uint64_t checkedQuantumPs(const SimOptions& options, const Clock& clock) {
  const uint64_t quantumPs =
      options.quantumPs ? options.quantumPs : kDefaultQuantumCycles * clock.periodPs();
  // Sync points are multiples of the quantum; keeping them on clock edges keeps every
  // device's view of time cycle-aligned.
  if (quantumPs % clock.periodPs() != 0)
    throw SimSetupError("the quantum (" + std::to_string(quantumPs) +
                        " ps) is not a multiple of the clock period (" +
                        std::to_string(clock.periodPs()) + " ps at " + std::to_string(clock.mhz()) +
                        " MHz)");
  return quantumPs;
}

} // namespace

void checkSimOptions(const SimOptions& options) {
  const ElfImage program = readElf(options.programPath);
  const MemoryMap map(options.config.soc);
  const Region& dram = map.region(RegionId::Dram);
  checkElfFits(program, dram);
  resolveLoads(options, program, dram);
  resolveDumps(options, program, dram);
  checkedQuantumPs(options, Clock(options.config.soc.clockMHz));
}

SimResult runSimulation(const SimOptions& options) {
  configureSystemC();
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
    throw std::logic_error("runSimulation: SystemC allows one simulation per process");

  // Everything that can reject the input is checked before any SystemC object exists.
  const ElfImage program = readElf(options.programPath);
  const MemoryMap map(options.config.soc);
  const Region& dramRegion = map.region(RegionId::Dram);
  checkElfFits(program, dramRegion);
  const std::vector<MemoryRange> loads = resolveLoads(options, program, dramRegion);
  const std::vector<MemoryRange> dumps = resolveDumps(options, program, dramRegion);
  const Clock clock(options.config.soc.clockMHz);
  const uint64_t quantumPs = checkedQuantumPs(options, clock);
  const sc_core::sc_time quantum = Clock::picoseconds(quantumPs);
  tlm_utils::tlm_quantumkeeper::set_global_quantum(quantum);
  sc_assert(Clock::toPs(tlm_utils::tlm_quantumkeeper::get_global_quantum()) % clock.periodPs() ==
            0);

  SocTop soc("soc", options, map, clock, program);
  // The program is in place; the loads go over it before the first instruction runs.
  for (size_t i = 0; i < loads.size(); ++i)
    std::memcpy(soc.dram().data() + (loads[i].address - dramRegion.base),
                options.loads[i].bytes.data(), loads[i].size);

  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fflush(options.console);

  SimResult result;
  sc_core::sc_time endTime = soc.cpu().currentTime();
  if (const auto& how = soc.control().how()) {
    result.end = *how;
    result.exitCode = soc.control().code();
    result.message = soc.control().message();
    endTime = soc.control().when();
  } else {
    // The kernel ran out of events: something waits for an event that never comes.
    result.end = SimEnd::Fault;
    result.message = "simulation stalled: no more events" +
                     (soc.cpu().blockedOn().empty()
                          ? std::string()
                          : " while the host CPU was blocked on " + soc.cpu().blockedOn()) +
                     " (pc " + hex(soc.cpu().lastPc()) + ")";
  }
  result.stats = statsJson(options, result, soc, clock, quantum, endTime, wallSeconds);
  for (const MemoryRange& d : dumps) {
    const uint8_t* p = soc.dram().data() + (d.address - dramRegion.base);
    result.dumps.emplace_back(p, p + d.size);
  }
  return result;
}

int processExitCode(const SimResult& result) {
  switch (result.end) {
  case SimEnd::Exit:
    return result.exitCode & 0xff;
  case SimEnd::Timeout:
    return kExitTimeout;
  case SimEnd::Fault:
    return kExitFault;
  }
  return kExitFault;
}

} // namespace by::soc
