// The SoC platform end to end: bare-metal programs (testbenches/sw) run by `brickyard sim`
// without an accelerator (--model none) and by soc_testbench (the SoC with the test
// accelerator), each simulation in its own process. Expectations are written here: program
// output, exit codes, the accelerator's log of what the platform decoded, and the --stats JSON.
// The RTL accelerator's tests are in rtl_cosim_test.cpp.
#include "cli_runner.h"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace by::test {
namespace {

namespace fs = std::filesystem;

const std::string kBrickyard = BY_BRICKYARD;
const std::string kTestbench = BY_SOC_TESTBENCH;
const std::string kTiny = std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml";

std::string elf(const std::string& program) {
  return std::string(BY_SW_DIR) + "/tiny/" + program + ".elf";
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

/// A scratch directory per test.
class Cosim : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("by_cosim_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// configs/tiny.yaml with extra keys under `soc:`.
  std::string tinyWithSoc(const std::string& name, const std::string& socKeys) const {
    std::string text = readFile(kTiny);
    const size_t at = text.find("\nsoc:\n");
    EXPECT_NE(at, std::string::npos);
    text.insert(at + 6, socKeys);
    std::ofstream(path(name)) << text;
    return path(name);
  }

  /// `brickyard sim --model none ARGS`: the platform without an accelerator.
  CliResult sim(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {kBrickyard, "sim", "--model", "none"};
    argv.insert(argv.end(), args.begin(), args.end());
    return runProgram(argv);
  }
  /// `brickyard sim ARGS` exactly.
  CliResult simExactly(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {kBrickyard, "sim"};
    argv.insert(argv.end(), args.begin(), args.end());
    return runProgram(argv);
  }

  /// soc_testbench; the accelerator's log lines go to `log`.
  CliResult testbench(const std::string& program, std::vector<std::string>& log,
                      const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> argv = {kTestbench, "--config", kTiny, "--log", path("accel.log")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(elf(program));
    CliResult r = runProgram(argv);
    log = splitLines(readFile(path("accel.log")));
    return r;
  }

  nlohmann::json stats(const std::string& name = "stats.json") const {
    return nlohmann::json::parse(readFile(path(name)));
  }

  fs::path dir_;
};

uint64_t cyclesPrinted(const std::string& out) {
  std::smatch m;
  const std::regex re("took ([0-9]+) cycles");
  EXPECT_TRUE(std::regex_search(out, m, re)) << out;
  return m.empty() ? 0 : std::stoull(m[1]);
}

// --- console, exit codes -------------------------------------------------------------------

TEST_F(Cosim, HelloPrintsThroughStdioAndExitsZero) {
  const CliResult r = sim({"--config", kTiny, elf("hello")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "Hello from the Brickyard SoC!\n"
                   "long long: -1234567890123 0xdeadbeefcafe 18446744073709551615\n"
                   "double: 3.142 -0.500 1.000e+10\n"
                   "bye\n");
  EXPECT_NE(r.err.find("exited with code 0"), std::string::npos) << r.err;
}

TEST_F(Cosim, QuietLeavesStderrEmpty) {
  const CliResult r = sim({"--config", kTiny, "--quiet", elf("hello")});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

TEST_F(Cosim, SelfCheckingProgramPassesAndFails) {
  const CliResult pass = sim({"--config", kTiny, elf("selfcheck_pass")});
  EXPECT_EQ(pass.status, 0) << pass.out << pass.err;
  EXPECT_EQ(pass.out, "selfcheck: 0 failure(s)\n");
  const CliResult fail = sim({"--config", kTiny, elf("selfcheck_fail")});
  EXPECT_EQ(fail.status, 3) << fail.err;
  EXPECT_NE(fail.out.find("sum(1..100) = 5050, expected 5051"), std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("selfcheck: 1 failure(s)"), std::string::npos);
}

TEST_F(Cosim, ExitFromNestedCallRunsAtexitHandlers) {
  const CliResult r = sim({"--config", kTiny, elf("exit_nested")});
  EXPECT_EQ(r.status, 42) << r.err;
  EXPECT_EQ(r.out, "leaving with 42\natexit handler ran\n");
}

// --- timing ------------------------------------------------------------------------------

TEST_F(Cosim, TimerCountsInstructionsTimesCpi) {
  // 2000 loop instructions plus a handful around them and one register access.
  const CliResult cpi10 = sim({"--config", kTiny, elf("timer")});
  ASSERT_EQ(cpi10.status, 0) << cpi10.out << cpi10.err;
  const uint64_t c10 = cyclesPrinted(cpi10.out);
  EXPECT_GE(c10, 2000u);
  EXPECT_LE(c10, 2040u);

  const CliResult cpi25 =
      sim({"--config", tinyWithSoc("cpi25.yaml", "  host_cpi_tenths: 25\n"), elf("timer")});
  ASSERT_EQ(cpi25.status, 0) << cpi25.out << cpi25.err;
  const uint64_t c25 = cyclesPrinted(cpi25.out);
  EXPECT_GE(c25, 5000u);
  EXPECT_LE(c25, 5100u);
}

TEST_F(Cosim, QuantumDoesNotChangeTheHostTimeline) {
  // Temporal decoupling changes when the CPU syncs, not how long its instructions take.
  std::string outs[2];
  nlohmann::json st[2];
  const char* quanta[2] = {"10", "100000"};
  for (int i = 0; i < 2; ++i) {
    const std::string s = "stats" + std::to_string(i) + ".json";
    const CliResult r =
        sim({"--config", kTiny, "--quantum-ns", quanta[i], "--stats", path(s), elf("timer")});
    ASSERT_EQ(r.status, 0) << r.err;
    outs[i] = r.out;
    st[i] = stats(s);
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_EQ(st[0]["host"]["instructions"], st[1]["host"]["instructions"]);
  EXPECT_EQ(st[0]["simulated"]["cycles"], st[1]["simulated"]["cycles"]);
  EXPECT_GT(st[0]["host"]["quantum_syncs"].get<uint64_t>(),
            st[1]["host"]["quantum_syncs"].get<uint64_t>());
}

TEST_F(Cosim, QuantumMustBeAWholeNumberOfClockPeriods) {
  const std::string cfg = tinyWithSoc("mhz333.yaml", "  clock_mhz: 333\n"); // 3003 ps
  const CliResult bad = sim({"--config", cfg, "--quantum-ns", "1000", elf("hello")});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("not a multiple of the clock period (3003 ps"), std::string::npos)
      << bad.err;
  const CliResult good = sim({"--config", cfg, "--quantum-ns", "3003", elf("hello")});
  EXPECT_EQ(good.status, 0) << good.err;
}

TEST_F(Cosim, ComputeChecksumMatchesHostReference) {
  // The same computation as testbenches/sw/programs/compute.c.
  constexpr int N = 48, kRounds = 8;
  static uint32_t a[N][N], b[N][N], c[N][N];
  uint32_t seed = 12345;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      seed = seed * 1664525u + 1013904223u;
      a[i][j] = (seed >> 16) - 32768u;
      seed = seed * 1664525u + 1013904223u;
      b[i][j] = (seed >> 16) - 32768u;
    }
  uint32_t checksum = 0;
  for (int r = 0; r < kRounds; ++r) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        uint32_t acc = static_cast<uint32_t>(r);
        for (int k = 0; k < N; ++k)
          acc += a[i][k] * b[k][j];
        c[i][j] = acc;
      }
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        checksum = checksum * 31u + c[i][j];
    a[r % N][r % N] ^= checksum;
  }
  char expected[64];
  std::snprintf(expected, sizeof expected, "compute: checksum %08x\n", checksum);

  const CliResult r = sim({"--config", kTiny, "--stats", path("stats.json"), elf("compute")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  const nlohmann::json s = stats();
  std::printf("[perf] compute: %llu host instructions in %.3f s: %.1f M instructions/s\n",
              static_cast<unsigned long long>(s["host"]["instructions"].get<uint64_t>()),
              s["wall"]["seconds"].get<double>(),
              s["wall"]["host_instructions_per_second"].get<double>() / 1e6);
}

// --- statistics ----------------------------------------------------------------------------

TEST_F(Cosim, StatsJsonDescribesTheRun) {
  const CliResult r = sim({"--config", kTiny, "--stats", path("stats.json"), elf("hello")});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json s = stats();
  EXPECT_EQ(s["program"], elf("hello"));
  EXPECT_EQ(s["config"], "tiny");
  EXPECT_EQ(s["end"]["reason"], "exit");
  EXPECT_EQ(s["end"]["exit_code"], 0);
  EXPECT_EQ(s["clock_mhz"], 1000);
  EXPECT_EQ(s["quantum_ns"], 1000.0);
  const uint64_t instructions = s["host"]["instructions"];
  const uint64_t cycles = s["simulated"]["cycles"];
  EXPECT_GT(instructions, 1000u);
  EXPECT_GE(cycles, instructions); // CPI 1.0 plus device access latencies
  EXPECT_LT(cycles, instructions + 4 * s["host"]["mmio_reads"].get<uint64_t>() +
                        4 * s["host"]["mmio_writes"].get<uint64_t>() + 10);
  EXPECT_EQ(s["simulated"]["time_ns"], static_cast<double>(cycles)); // 1 GHz
  EXPECT_EQ(s["host"]["cpi"], 1.0);
  EXPECT_EQ(s["host"]["rocc_commands"], 0);
  EXPECT_EQ(s["uart"]["bytes"], r.out.size());
  EXPECT_EQ(s["host"]["mmio_writes"].get<uint64_t>(), r.out.size() + 1); // + exit
  EXPECT_GT(s["wall"]["seconds"].get<double>(), 0.0);
  EXPECT_GT(s["wall"]["simulated_cycles_per_second"].get<double>(), 0.0);
  EXPECT_GT(s["wall"]["host_instructions_per_second"].get<double>(), 0.0);
  EXPECT_EQ(s["dram"]["size_mib"], 64);
  EXPECT_EQ(s["dram"]["latency_cycles"], 20);
  EXPECT_EQ(s["dram"]["bytes_per_cycle"], 8);
  EXPECT_EQ(s["dram"]["initiators"]["host"]["bytes_read"], 0); // host loads bypass TLM
  EXPECT_TRUE(s["accelerator"].is_null());
}

// --- limits and faults ---------------------------------------------------------------------

TEST_F(Cosim, MaxCyclesStopsWithTimeoutCode) {
  const CliResult r = sim(
      {"--config", kTiny, "--max-cycles", "100000", "--stats", path("stats.json"), elf("spin")});
  EXPECT_EQ(r.status, 124);
  EXPECT_EQ(splitLines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("timeout after --max-cycles 100000"), std::string::npos) << r.err;
  const nlohmann::json s = stats();
  EXPECT_EQ(s["end"]["reason"], "timeout");
  EXPECT_EQ(s["simulated"]["cycles"], 100000);
  EXPECT_NEAR(s["host"]["instructions"].get<double>(), 100000.0, 400.0);
}

struct FaultCase {
  const char* program;
  const char* message;
};

TEST_F(Cosim, GuestFaultsEndTheRunWithAClearMessage) {
  const FaultCase cases[] = {
      {"fault_unmapped_load", "access outside the memory map: 4-byte load from 0x20000000 at pc"},
      {"fault_illegal", "illegal instruction 0x0000000b at pc"},
      {"fault_ecall", "environment call (ecall"},
      {"fault_uart_byte", "bus error: 1-byte write to 0x10000000 (uart+0x0)"},
      {"fault_null_call", "access outside the memory map: instruction fetch from 0x0"},
      // Without an accelerator, RoCC instructions and the control window are faults.
      {"rocc", "RoCC instruction (custom-3, funct7 100) but this SoC has no accelerator"},
      {"mmio", "access to the accelerator control window, but this SoC has no accelerator"},
  };
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.program);
    const CliResult r = sim({"--config", kTiny, elf(c.program)});
    EXPECT_EQ(r.status, 125);
    EXPECT_EQ(splitLines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("brickyard sim: error: guest fault", 0), 0u) << r.err;
  }
}

// --- rejected input ------------------------------------------------------------------------

TEST_F(Cosim, BadProgramsAreRejectedWithOneLine) {
  std::ofstream(path("text.elf")) << "this is not an ELF file\n";
  const std::string hello = readFile(elf("hello"));
  std::ofstream(path("truncated.elf"), std::ios::binary) << hello.substr(0, 100);
  // hello.elf with its first segment moved past the end of tiny's 64 MiB of DRAM.
  std::string outside = hello;
  Elf64_Ehdr eh;
  std::memcpy(&eh, outside.data(), sizeof eh);
  Elf64_Phdr ph;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    std::memcpy(&ph, outside.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD) {
      ph.p_paddr = 0x9000'0000;
      std::memcpy(outside.data() + eh.e_phoff + i * sizeof ph, &ph, sizeof ph);
      break;
    }
  }
  std::ofstream(path("outside.elf"), std::ios::binary) << outside;
  const FaultCase cases[] = {
      {"missing.elf", "cannot open program: No such file or directory"},
      {"text.elf", "not an ELF file (bad magic)"},
      {"truncated.elf", "truncated ELF"},
      {"x86", "ELF for x86-64 (e_machine 62), expected RISC-V (243)"},
      {"outside.elf", "segment [0x90000000, 0x9"},
  };
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.program);
    const std::string program = std::string(c.program) == "x86" ? kBrickyard : path(c.program);
    const CliResult r = sim({"--config", kTiny, program});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    ASSERT_EQ(splitLines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("brickyard sim: error: " + program + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}

TEST_F(Cosim, BadCommandLinesAreRejected) {
  const std::vector<std::vector<std::string>> cases = {
      {elf("hello")}, // no --config
      {"--config", kTiny, "--max-cycles", "12x", elf("hello")},
      {"--config", kTiny, "--quantum-ns", "0", elf("hello")},
      {"--config", kTiny, "--model", "tlm", elf("hello")},
      {"--config", kTiny, "--model", "bogus", elf("hello")},
      {"--config", kTiny, "--model", "none", "--trace", path("w.fst"), elf("hello")},
      {"--config", kTiny, "--trace-window", "1:2", elf("hello")},
      {"--config", kTiny, "--trace", path("w.fst"), "--trace-window", "9:2", elf("hello")},
      {"--config", kTiny, "--trace", path("w.fst"), "--trace-window", "x", elf("hello")},
      {"--config", kTiny, "--trace", path("no/such/dir/w.fst"), elf("hello")},
      {"--config", path("missing.yaml"), elf("hello")},
      {"--config", kTiny, "--stats", path("no/such/dir/s.json"), elf("hello")},
  };
  for (const auto& args : cases) {
    const CliResult r = simExactly(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(splitLines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(Cosim, HelpDocumentsOptionsAndExitCodes) {
  const CliResult r = simExactly({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* text : {"--config", "--stats", "--max-cycles", "--quantum-ns", "--model",
                           "--trace", "--trace-window", "--cache-dir", "--no-clock-gating",
                           "--quiet", "124", "125", "input rejected", "BRICKYARD_CACHE_DIR"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
}

// --- with the test accelerator ------------------------------------------------------------

TEST_F(Cosim, RoccCommandsAreDecodedAndAnswered) {
  std::vector<std::string> log;
  const CliResult r = testbench("rocc", log, {"--stats", path("stats.json")});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rocc: 0 failure(s)"), std::string::npos) << r.out;
  ASSERT_GE(log.size(), 18u);
  // Register numbers: a3 = x13, a4 = x14, a5 = x15, a6 = x16, t0 = x5, t1 = x6, t6 = x31,
  // s2..s4 = x18..x20. Values are not read when xs1/xs2 are clear.
  const std::vector<std::string> decode = {
      "rocc funct7=100 xd=1 xs1=1 xs2=1 rd=15 rs1=13 rs2=14 rs1v=0x1111222233334444 "
      "rs2v=0x123456789abcdef",
      "rocc funct7=64 xd=0 xs1=1 xs2=1 rd=31 rs1=13 rs2=14 rs1v=0x1111222233334444 "
      "rs2v=0x123456789abcdef",
      "rocc funct7=127 xd=1 xs1=0 xs2=0 rd=16 rs1=5 rs2=6 rs1v=0 rs2v=0",
      "rocc funct7=65 xd=1 xs1=1 xs2=0 rd=20 rs1=18 rs2=19 rs1v=0x1111222233334444 rs2v=0",
      "rocc funct7=66 xd=1 xs1=1 xs2=1 rd=0 rs1=13 rs2=14 rs1v=0x7 rs2v=0x9",
      "mmio read 0x28 -> 0x00000005",
  };
  for (size_t i = 0; i < decode.size(); ++i)
    EXPECT_EQ(log[i], decode[i]) << "log line " << i;
  for (int i = 0; i < 8; ++i) {
    char expected[128];
    std::snprintf(expected, sizeof expected,
                  "rocc funct7=2 xd=0 xs1=1 xs2=1 rd=0 rs1=13 rs2=14 rs1v=%s rs2v=0",
                  i == 0 ? "0" : ("0x" + std::to_string(i)).c_str());
    EXPECT_EQ(log[decode.size() + i], expected);
  }
  EXPECT_EQ(log[14], "mmio write 0x20 <- 0x00000100");
  EXPECT_EQ(log[15].rfind("rocc funct7=3 xd=0 xs1=1 xs2=1", 0), 0u) << log[15];
  EXPECT_EQ(log[16], "mmio write 0x24 <- 0x00000001");
  EXPECT_EQ(log[17].rfind("rocc funct7=4 ", 0), 0u) << log[17];

  const nlohmann::json s = stats();
  EXPECT_EQ(s["accelerator"]["kind"], "test");
  EXPECT_EQ(s["accelerator"]["counters"]["commands"], 15);
  EXPECT_EQ(s["accelerator"]["counters"]["queue_full_stalls"], 5);
  EXPECT_EQ(s["accelerator"]["counters"]["dma_bytes"], 256);
  EXPECT_EQ(s["accelerator"]["interrupts"], 1);
  EXPECT_EQ(s["host"]["rocc_commands"], 15);
  EXPECT_GE(s["host"]["fences"].get<int>(), 2);
  const auto& dma = s["dram"]["initiators"]["accelerator"];
  EXPECT_EQ(dma["bytes_read"], 256);
  EXPECT_EQ(dma["bytes_written"], 256);
  EXPECT_EQ(dma["transactions"], 8); // 64-byte chunks
  EXPECT_EQ(s["dram"]["bytes_read"], 256);
  EXPECT_GT(s["simulated"]["cycles"].get<uint64_t>(), 5000000000u); // the sleep
}

TEST_F(Cosim, ControlRegistersSeeEveryAccess) {
  std::vector<std::string> log;
  const CliResult r = testbench("mmio", log);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const std::vector<std::string> expected = {
      "mmio read 0x00 -> 0x7e57acc1",
      "mmio write 0x10 <- 0xa0000000",
      "mmio write 0x14 <- 0xa0000001",
      "mmio write 0x18 <- 0xa0000002",
      "mmio write 0x1c <- 0xa0000003",
      "mmio read 0x10 -> 0xa0000000",
      "mmio read 0x14 -> 0xa0000001",
      "mmio read 0x18 -> 0xa0000002",
      "mmio read 0x1c -> 0xa0000003",
      // 64-bit store and load: two 32-bit accesses each, low word first.
      "mmio write 0x10 <- 0x55667788",
      "mmio write 0x14 <- 0x11223344",
      "mmio read 0x10 -> 0x55667788",
      "mmio read 0x14 -> 0x11223344",
      "mmio read 0x14 -> 0x11223344",
  };
  EXPECT_EQ(log, expected);
}

TEST_F(Cosim, BlockedAcceleratorEndsByTimeoutOrAsStall) {
  std::vector<std::string> log;
  const CliResult timeout = testbench("rocc_block", log, {"--max-cycles", "50000"});
  EXPECT_EQ(timeout.status, 124);
  EXPECT_NE(timeout.err.find("blocked on RoCC command funct7 5"), std::string::npos) << timeout.err;
  const CliResult stall = testbench("rocc_block", log);
  EXPECT_EQ(stall.status, 125);
  EXPECT_NE(stall.err.find("simulation stalled: no more events while the host CPU was "
                           "blocked on RoCC command funct7 5"),
            std::string::npos)
      << stall.err;
}

} // namespace
} // namespace by::test
