#include "system_run.h"

#include "golden/arith.h"
#include "support/files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>

namespace by::test {

namespace {

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// The first few differing bytes, with their addresses.
std::string dramDiff(uint64_t base, const std::vector<uint8_t>& got,
                     const std::vector<uint8_t>& want) {
  std::ostringstream os;
  size_t shown = 0, total = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i])
      continue;
    if (shown < 8) {
      os << "  DRAM " << hex(base + i) << ": accelerator " << hex(got[i]) << ", model "
         << hex(want[i]) << "\n";
      ++shown;
    }
    ++total;
  }
  return total ? std::to_string(total) + " DRAM bytes differ:\n" + os.str() : "";
}

} // namespace

RunOutcome runAndCompare(const config::Config& config, const funcmodel::Program& program,
                         const std::vector<uint8_t>& image, const RunOptions& options) {
  RunOutcome out;
  const SystemOptions& so = options.system;
  funcmodel::DramImage reference(so.memBase, so.memSize);
  reference.bytes() = image;
  funcmodel::FuncModel model(config, reference);
  AccelSystem system(config, so);
  system.memory().image() = image;

  std::vector<funcmodel::ExecResult> expected;
  for (const funcmodel::Instruction& instr : program) {
    expected.push_back(model.execute(instr));
    system.issue(instr);
  }
  std::ostringstream failure;
  if (!system.drain()) {
    failure << system.hangReport() << "\n";
  } else {
    out.cycles = system.cycle();
    out.modelErrors = model.error();
    if (options.readCounters)
      for (const hw::isa::Register& reg : hw::isa::registers()) {
        const std::string& n = reg.name;
        if (n.size() > 3 && n.compare(n.size() - 3, 3, "_LO") == 0 &&
            reg.offset >= hw::isa::registerOffset("CYCLES_LO"))
          out.counters[n.substr(0, n.size() - 3)] = system.readCounter(n.substr(0, n.size() - 3));
      }
    failure << dramDiff(so.memBase, system.memory().image(), reference.bytes());
    const uint32_t error = system.readRegister("ERROR");
    const uint32_t count = system.readRegister("ERROR_COUNT");
    const funcmodel::ErrorState& e = model.error();
    if (count != e.count)
      failure << "ERROR_COUNT: accelerator " << count << ", model " << e.count << "\n";
    if (static_cast<int>(error & 0xff) != e.code ||
        static_cast<int>((error >> 8) & 0x7f) != e.funct)
      failure << "ERROR: accelerator code " << (error & 0xff) << " funct " << ((error >> 8) & 0x7f)
              << ", model code " << e.code << " funct " << e.funct << "\n";
    for (const Response& r : system.responses()) {
      const funcmodel::ExecResult& x = expected.at(r.command);
      const uint64_t want = x.hasRd ? x.rd : 0;
      if (x.rdDeterministic && r.data != want)
        failure << "response of command " << r.command << " ("
                << funcmodel::formatInstruction(program[r.command]) << "): accelerator "
                << hex(r.data) << ", model " << hex(want) << "\n";
    }
    system.finish();
    if (!system.protocolClean())
      failure << system.protocolReport();
  }
  out.dram = system.memory().image();
  out.responses.assign(system.responses().begin(), system.responses().end());
  out.failure = failure.str();
  out.ok = out.failure.empty();
  return out;
}

FuzzSetup fuzzSetup(const config::Config& config, uint64_t seed) {
  FuzzSetup f;
  const uint64_t base = 0x80000000ull;
  f.layout = fuzzer::ProgramGenerator::layoutAt(config, base + 0x1000, 64 * 1024, 64 * 1024);
  const uint64_t end = (f.layout.dump.end() + 0xfff) / 0x1000 * 0x1000;
  f.options.name = std::string(BY_CONFIG_NAME) + "-seed" + std::to_string(seed);
  f.options.system.memBase = base;
  f.options.system.memSize = end - base;
  f.options.system.seed = seed;
  f.options.system.mmioPercent = 10;
  f.image.assign(f.options.system.memSize, 0);
  // Inputs of varying sparsity (TensorDash skips zeros; everything else must not care).
  constexpr double kZeroFractions[] = {0.0, 0.3, 0.6, 0.9, 0.98};
  const double zeros = kZeroFractions[seed % 5];
  axi::Rng rng(seed ^ 0x5eedULL);
  for (uint64_t a = f.layout.input.base; a < f.layout.input.end(); ++a) {
    const uint64_t r = rng.next();
    f.image[a - base] = (r >> 16) % 1000 < zeros * 1000 ? 0 : static_cast<uint8_t>(r);
  }
  return f;
}

void putLittleEndian(std::vector<uint8_t>& image, uint64_t offset, int64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    image.at(offset + i) = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
}

int64_t getLittleEndian(const std::vector<uint8_t>& image, uint64_t offset, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= uint64_t{image.at(offset + i)} << (8 * i);
  return golden::wrap(static_cast<int64_t>(v), 8 * bytes);
}

namespace {
constexpr const char* kImageMagic = "brickyard-image";
} // namespace

std::string saveImage(const std::string& name, const std::vector<uint8_t>& image,
                      const RunOptions& options) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(BY_BINARY_DIR) / "test-output" / "system";
  fs::create_directories(dir);
  const fs::path path = dir / (name + ".img");
  std::ostringstream text;
  text << kImageMagic << " base=" << options.system.memBase << " seed=" << options.system.seed
       << " mmio=" << options.system.mmioPercent << " stress=" << options.system.stress << "\n";
  text.write(reinterpret_cast<const char*>(image.data()),
             static_cast<std::streamsize>(image.size()));
  support::writeFileAtomically(path, text.str());
  return path.string();
}

bool loadImage(const std::string& path, std::vector<uint8_t>& image, RunOptions& options,
               std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::string magic, header;
  if (!in || !std::getline(in, header)) {
    error = path + ": cannot read";
    return false;
  }
  std::istringstream h(header);
  unsigned long long base = 0, seed = 0;
  int mmio = 0, stress = 1;
  h >> magic;
  if (magic != kImageMagic ||
      std::sscanf(header.c_str() + magic.size(), " base=%llu seed=%llu mmio=%d stress=%d", &base,
                  &seed, &mmio, &stress) != 4) {
    error = path + ": not a system test image (expected a '" + kImageMagic + " ...' header)";
    return false;
  }
  image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  options.system.memBase = base;
  options.system.memSize = image.size();
  options.system.seed = seed;
  options.system.mmioPercent = mmio;
  options.system.stress = stress != 0;
  return true;
}

std::string saveProgram(const std::string& name, const funcmodel::Program& program,
                        const std::vector<std::string>& comments) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(BY_BINARY_DIR) / "test-output" / "system";
  fs::create_directories(dir);
  const fs::path path = dir / (name + ".prog");
  support::writeFileAtomically(path, funcmodel::formatProgram(program, comments));
  return path.string();
}

} // namespace by::test
