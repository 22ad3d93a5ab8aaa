// The energy table and its SRAM scaling (docs/evaluation.md, "Energy"), against the numbers of
// the source (Horowitz, ISSCC 2014, 45 nm) worked out by hand.
#include "config/loader.h"
#include "eval/energy.h"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace {

using namespace by::eval;

TEST(EnergyTable, EntriesAreHorowitzFigures) {
  EXPECT_DOUBLE_EQ(energyEntry("mac_mult_int8").picojoules, 0.2);
  EXPECT_DOUBLE_EQ(energyEntry("mac_add_int32").picojoules, 0.1);
  EXPECT_DOUBLE_EQ(energyEntry("acc_add_int32").picojoules, 0.1);
  EXPECT_DOUBLE_EQ(energyEntry("sram_bit_8kib").picojoules, 10.0 / 64);
  EXPECT_DOUBLE_EQ(energyEntry("register_bit").picojoules, 0.03 / 8);
  EXPECT_DOUBLE_EQ(energyEntry("dram_byte").picojoules, 1950.0 / 8);
  EXPECT_THROW(energyEntry("no_such_entry"), std::out_of_range);
  std::set<std::string> keys;
  for (const EnergyEntry& e : energyTable()) {
    EXPECT_TRUE(keys.insert(e.key).second) << e.key;
    EXPECT_GT(e.picojoules, 0) << e.key;
    EXPECT_NE(e.source.find("45 nm"), std::string::npos) << e.key << ": source without a node";
  }
}

TEST(EnergyTable, SramScalesWithTheSquareRootOfTheBank) {
  EXPECT_DOUBLE_EQ(sramPicojoulesPerBit(8192), 10.0 / 64);      // Horowitz 8 KiB: 10 pJ
  EXPECT_DOUBLE_EQ(64 * sramPicojoulesPerBit(32768), 20.0);     // Horowitz 32 KiB: 20 pJ
  EXPECT_NEAR(64 * sramPicojoulesPerBit(1 << 20), 100.0, 13.2); // Horowitz 1 MiB: 100 pJ
  EXPECT_DOUBLE_EQ(sramPicojoulesPerBit(2048), 10.0 / 64 / 2);  // a quarter: half
}

TEST(EnergyTable, TinysMemories) {
  // tiny: a 4x4 array, one lane, int8 inputs and int32 accumulators (configs/tiny.yaml).
  const by::config::Config c =
      by::config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
  const MemoryEnergy m = memoryEnergy(c);
  const double spBank = c.memory.scratchpad.capacityKiB * 1024.0 / c.memory.scratchpad.banks;
  const double accBank = c.memory.accumulator.capacityKiB * 1024.0 / c.memory.accumulator.banks;
  EXPECT_EQ(m.spBankBytes, spBank);
  EXPECT_EQ(m.accBankBytes, accBank);
  EXPECT_EQ(m.spAccessBits, 4 * 8 * c.memory.scratchpad.rowsPerWord);
  EXPECT_EQ(m.accAccessBits, 4 * 32);
  EXPECT_DOUBLE_EQ(m.spPicojoulesPerAccess, m.spAccessBits * 10.0 / 64 * std::sqrt(spBank / 8192));
  EXPECT_DOUBLE_EQ(m.accPicojoulesPerAccess, 128 * 10.0 / 64 * std::sqrt(accBank / 8192));
}

} // namespace
