#include "eval/energy.h"

#include "config/derived.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace by::eval {

namespace {

// Horowitz, "Computing's energy problem (and what we can do about it)", ISSCC 2014, the
// table of operation energies for a 45 nm process at 0.9 V.
const char* const kHorowitz = "Horowitz, ISSCC 2014, 45 nm, 0.9 V";
constexpr double kSram8KiBRead64 = 10.0; // pJ: 64-bit read of an 8 KiB SRAM
constexpr double kSramRefBytes = 8192.0;

} // namespace

const std::vector<EnergyEntry>& energyTable() {
  static const std::vector<EnergyEntry> table = {
      {"mac_mult_int8", 0.2, "8-bit integer multiply", kHorowitz,
       "per MAC issued to the array (counter MACS)"},
      {"mac_add_int32", 0.1, "32-bit integer add", kHorowitz,
       "the add of every MAC issued into the PE's sum (counter MACS)"},
      {"acc_add_int32", 0.1, "32-bit integer add", kHorowitz,
       "per accumulator element written (ACC_WRITES x DIM): the read-modify-write adder"},
      {"sram_bit_8kib", kSram8KiBRead64 / 64.0, "bit read or written, 8 KiB bank",
       std::string(kHorowitz) + ": 64-bit read of an 8 KiB SRAM 10 pJ; writes taken as reads",
       "scaled by sqrt(bank bytes / 8 KiB) per config (sramPicojoulesPerBit)"},
      {"register_bit", 0.03 / 8.0, "flip-flop bit written",
       std::string("estimate from ") + kHorowitz +
           ": one bit of the 8-bit add (0.03 pJ / 8), as a flop's clock and data load is "
           "about a full adder's",
       "the array's pipeline registers: per compute beat DIM x DIM x (lanes x input width + "
       "output width) bits"},
      {"dram_byte", 1950.0 / 8.0, "byte moved over the DRAM interface",
       std::string(kHorowitz) + ": DRAM 1.3-2.6 nJ per 64-bit access; the middle, 1.95 nJ",
       "DMA_READ_BYTES + DMA_WRITE_BYTES"},
  };
  return table;
}

const EnergyEntry& energyEntry(const std::string& key) {
  for (const EnergyEntry& e : energyTable())
    if (e.key == key)
      return e;
  throw std::out_of_range("no energy entry '" + key + "'");
}

double sramPicojoulesPerBit(double bankBytes) {
  return energyEntry("sram_bit_8kib").picojoules * std::sqrt(bankBytes / kSramRefBytes);
}

MemoryEnergy memoryEnergy(const config::Config& c) {
  const config::Derived d = config::derive(c);
  MemoryEnergy m;
  m.spBankBytes = double(c.memory.scratchpad.capacityKiB) * 1024.0 / c.memory.scratchpad.banks;
  m.accBankBytes = double(c.memory.accumulator.capacityKiB) * 1024.0 / c.memory.accumulator.banks;
  m.spAccessBits = d.spRowBytes * 8 * d.spWordRows;
  m.accAccessBits = d.accRowBytes * 8;
  m.spPicojoulesPerAccess = m.spAccessBits * sramPicojoulesPerBit(m.spBankBytes);
  m.accPicojoulesPerAccess = m.accAccessBits * sramPicojoulesPerBit(m.accBankBytes);
  return m;
}

std::string energyTableMarkdown() {
  std::string out = "| entry | pJ | per | source | used for |\n|---|---|---|---|---|\n";
  char pj[32];
  for (const EnergyEntry& e : energyTable()) {
    std::snprintf(pj, sizeof pj, "%.6g", e.picojoules);
    out +=
        "| `" + e.key + "` | " + pj + " | " + e.unit + " | " + e.source + " | " + e.note + " |\n";
  }
  out += "\nSRAM energy per bit of a bank of B bytes: `sram_bit_8kib x sqrt(B / 8192)`. An "
         "access moves one SRAM word (scratchpad: DIM x lanes x rows_per_word elements; "
         "accumulator: DIM accumulator elements). Examples:\n\n| bank | pJ/bit | 64-bit access |\n"
         "|---|---|---|\n";
  for (double kib : {1.0, 8.0, 32.0, 64.0, 1024.0}) {
    char line[128];
    const double b = sramPicojoulesPerBit(kib * 1024);
    std::snprintf(line, sizeof line, "| %g KiB | %.4g | %.4g pJ |\n", kib, b, 64 * b);
    out += line;
  }
  return out;
}

} // namespace by::eval
