// The per-event energy table of `brickyard eval` (docs/evaluation.md, "Energy"): the one
// place its numbers live. The report multiplies event counts by these entries; the docs'
// table is generated from here (`brickyard doc energy`, checked by docs_test).
#pragma once

#include "config/config.h"

#include <string>
#include <vector>

namespace by::eval {

/// One entry of the table: energy per event at the technology node of its source.
struct EnergyEntry {
  std::string key;    // "mac_mult_int8", ...
  double picojoules;  // per `unit`
  std::string unit;   // "8-bit multiply", "bit", ...
  std::string source; // publication and node
  std::string note;   // how Brickyard uses it
};

/// The table, in the order the docs list it.
const std::vector<EnergyEntry>& energyTable();
/// The entry `key`; throws std::out_of_range for an unknown key.
const EnergyEntry& energyEntry(const std::string& key);

/// SRAM energy per bit read or written in one bank of `bankBytes` bytes: Horowitz's 8 KiB
/// figure (64-bit read, 10 pJ) scaled by sqrt(bankBytes / 8 KiB): the bit and word lines a
/// read drives grow with the side of the array. Reproduces Horowitz's 32 KiB point (20 pJ)
/// exactly and his 1 MiB point (100 pJ) within 13%.
double sramPicojoulesPerBit(double bankBytes);

/// The per-access energies of a config's memories (pJ per SRAM word access).
struct MemoryEnergy {
  double spBankBytes = 0, accBankBytes = 0; // one bank's capacity
  int spAccessBits = 0, accAccessBits = 0;  // bits of one SRAM word
  double spPicojoulesPerAccess = 0, accPicojoulesPerAccess = 0;
};
MemoryEnergy memoryEnergy(const config::Config& config);

/// The table and the scaling rule as Markdown (the generated section of docs/evaluation.md).
std::string energyTableMarkdown();

} // namespace by::eval
