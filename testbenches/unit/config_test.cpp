// Config loading: good configs and their derived values, and one test per class of bad
// input checking the exact position and key of the single error line.
#include "config/derived.h"
#include "config/loader.h"
#include "config/schema.h"

#include <fstream>
#include <gtest/gtest.h>
#include <regex>

using namespace by::config;

namespace {

std::string configPath(const std::string& name) {
  return std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml";
}

const char* kTiny = R"(name: t
array:
  mesh_rows: 4
  mesh_cols: 4
  tile_rows: 1
  tile_cols: 1
  dataflow: both
types:
  input_width: 8
  acc_width: 32
  spatial_output_width: 20
memory:
  scratchpad:
    capacity_kib: 4
    banks: 4
  accumulator:
    capacity_kib: 4
    banks: 2
)";

// Replaces the first occurrence of `from` in kTiny.
std::string tinyWith(const std::string& from, const std::string& to) {
  std::string s = kTiny;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

struct Expected {
  int line, col;
  std::string key;
  std::string fragment;
};

void expectError(const std::string& text, const Expected& e) {
  try {
    loadConfigText(text, "cfg.yaml");
    FAIL() << "accepted: " << text;
  } catch (const ConfigError& err) {
    EXPECT_EQ(err.line(), e.line) << err.what();
    EXPECT_EQ(err.column(), e.col) << err.what();
    EXPECT_EQ(err.key(), e.key) << err.what();
    EXPECT_NE(std::string(err.what()).find(e.fragment), std::string::npos) << err.what();
    const std::string what = err.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
    EXPECT_EQ(
        what.rfind("cfg.yaml:" + std::to_string(e.line) + ":" + std::to_string(e.col) + ": error: ",
                   0),
        0u)
        << what;
  }
}

} // namespace

TEST(Config, ShippedConfigsLoad) {
  for (const char* name : {"default", "tiny", "tiles2x2", "lanes4", "large32"}) {
    Config c = loadConfigFile(configPath(name));
    EXPECT_EQ(c.name, name);
  }
}

TEST(Config, DefaultMatchesGemminiDefaults) {
  // Gemmini's default configuration: DIM 16, BANK_NUM 4, BANK_ROWS 4096, ACC_ROWS 1024,
  // MAX_BLOCK_LEN 4, MAX_BLOCK_LEN_ACC 1.
  Config c = loadConfigFile(configPath("default"));
  Derived d = derive(c);
  EXPECT_EQ(d.dim, 16);
  EXPECT_EQ(c.memory.scratchpad.banks, 4);
  EXPECT_EQ(d.spBankRows, 4096);
  EXPECT_EQ(d.accRows, 1024);
  EXPECT_EQ(d.maxBlockLen, 4);
  EXPECT_EQ(d.maxBlockLenAcc, 1);
  EXPECT_EQ(d.peakMacsPerCycle, 256);
  EXPECT_EQ(c.array.dataflow, Dataflow::Both);
}

TEST(Config, DefaultsFillOptionalKeys) {
  Config c = loadConfigText(kTiny, "t.yaml");
  EXPECT_EQ(c.array.lanes, 1);
  EXPECT_EQ(c.dma.busWidth, 128);
  EXPECT_EQ(c.memory.accumulator.ports, 2);
  EXPECT_EQ(c.commands.reservationStationEntries, 16);
  EXPECT_FALSE(c.tensordash.enabled);
}

TEST(Config, ShippedReservationStations) {
  EXPECT_EQ(loadConfigFile(configPath("default")).commands.reservationStationEntries, 64);
  for (const char* name : {"td8", "td8_boveda"})
    EXPECT_EQ(loadConfigFile(configPath(name)).commands.reservationStationEntries, 32) << name;
}

TEST(Config, HashDependsOnEveryValue) {
  Config a = loadConfigText(kTiny, "t.yaml");
  Config b = loadConfigText(tinyWith("banks: 4", "banks: 2"), "t.yaml");
  EXPECT_NE(configHash(a), configHash(b));
  EXPECT_EQ(configHash(a), configHash(loadConfigText(kTiny, "other-name.yaml")));
  EXPECT_EQ(configHash(a).size(), 16u);
}

TEST(ConfigErrors, MissingKey) {
  expectError(tinyWith("  tile_cols: 1\n", ""), {2, 1, "array.tile_cols", "missing required key"});
}
TEST(ConfigErrors, WrongType) {
  expectError(
      tinyWith("mesh_rows: 4", "mesh_rows: four"),
      {3, 14, "array.mesh_rows", "invalid value 'four'; expected a power of two from 1 to 256"});
}
TEST(ConfigErrors, TypoKeySuggestsTheRightOne) {
  expectError(tinyWith("mesh_cols: 4", "mesh_colz: 4"),
              {4, 3, "array.mesh_colz", "unknown key (did you mean 'mesh_cols'?)"});
}
TEST(ConfigErrors, NotAPowerOfTwo) {
  expectError(tinyWith("banks: 4", "banks: 3"),
              {15, 12, "memory.scratchpad.banks", "is not a power of two"});
}
TEST(ConfigErrors, ReservationStationEntries) {
  expectError(std::string(kTiny) + "commands:\n  reservation_station_entries: 24\n",
              {20, 32, "commands.reservation_station_entries", "is not a power of two"});
  expectError(std::string(kTiny) + "commands:\n  reservation_station_entries: 128\n",
              {20, 32, "commands.reservation_station_entries", "out of range"});
}
TEST(ConfigErrors, ZeroSize) {
  expectError(tinyWith("capacity_kib: 4", "capacity_kib: 0"),
              {14, 19, "memory.scratchpad.capacity_kib", "out of range"});
}
TEST(ConfigErrors, NegativeSize) {
  expectError(tinyWith("banks: 2", "banks: -2"),
              {18, 12, "memory.accumulator.banks", "out of range"});
}
TEST(ConfigErrors, InvalidDataflow) {
  expectError(tinyWith("dataflow: both", "dataflow: weight"),
              {7, 13, "array.dataflow", "invalid value 'weight'; expected one of ws, os or both"});
}
TEST(ConfigErrors, EmptyFile) {
  expectError("", {1, 1, "", "the file is empty"});
}
TEST(ConfigErrors, CommentsOnly) {
  expectError("# nothing\n", {1, 1, "", "holds no settings"});
}
TEST(ConfigErrors, YamlSyntax) {
  expectError("name: t\narray: [mesh_rows: 4\n", {3, 1, "", "YAML syntax error"});
}
TEST(ConfigErrors, ListWhereMapExpected) {
  expectError(tinyWith("memory:\n  scratchpad:\n    capacity_kib: 4\n    banks: 4\n",
                       "memory:\n  scratchpad:\n    - 4\n    - 4\n"),
              {14, 5, "memory.scratchpad", "expected a mapping"});
}
TEST(ConfigErrors, InconsistentDimensions) {
  expectError(tinyWith("tile_cols: 1", "tile_cols: 2"),
              {4, 14, "array.mesh_cols", "the array must be square"});
}
TEST(ConfigErrors, AbsurdlyLarge) {
  expectError(tinyWith("capacity_kib: 4", "capacity_kib: 999999999999999999999"),
              {14, 19, "memory.scratchpad.capacity_kib", "out of range"});
}
TEST(ConfigErrors, DuplicateKey) {
  expectError(tinyWith("  mesh_cols: 4\n", "  mesh_cols: 4\n  mesh_cols: 4\n"),
              {5, 3, "array.mesh_cols", "duplicate key"});
}
TEST(ConfigErrors, QuotedNumber) {
  expectError(tinyWith("mesh_rows: 4", "mesh_rows: \"4\""),
              {3, 14, "array.mesh_rows", "the quoted string"});
}
TEST(ConfigErrors, AccumulatorNarrowerThanProducts) {
  std::string t = tinyWith("input_width: 8", "input_width: 16");
  t = t.replace(t.find("acc_width: 32"), 13, "acc_width: 16");
  expectError(t, {10, 14, "types.acc_width", "expected at least 2*input_width = 32"});
}
TEST(ConfigErrors, ScratchpadSmallerThanItsBanks) {
  std::string t = tinyWith("capacity_kib: 4\n    banks: 4", "capacity_kib: 1\n    banks: 64");
  Config c = loadConfigText(t, "x"); // 1 KiB = 256 rows of 4 bytes: enough for 64 banks
  EXPECT_EQ(derive(c).spBankRows, 4);
  t = tinyWith("mesh_rows: 4\n  mesh_cols: 4", "mesh_rows: 256\n  mesh_cols: 256");
  t = t.replace(t.find("capacity_kib: 4\n    banks: 4"), 28, "capacity_kib: 1\n    banks: 8");
  expectError(t, {14, 19, "memory.scratchpad.capacity_kib", "fewer than the 8 banks"});
}
TEST(ConfigErrors, RowsPerWordMustFitABank) {
  // tiny: 4 KiB of 4-byte rows in 4 banks = 256 rows per bank.
  const std::string key = "    banks: 4\n  accumulator:";
  Config c =
      loadConfigText(tinyWith(key, "    banks: 4\n    rows_per_word: 8\n  accumulator:"), "x");
  EXPECT_EQ(c.memory.scratchpad.rowsPerWord, 8);
  EXPECT_EQ(derive(c).spWordRows, 8);
  EXPECT_EQ(derive(c).spBankWords, 32);
  EXPECT_EQ(derive(loadConfigText(kTiny, "x")).spWordRows, 1); // the default: one row
  // 1 KiB in 64 banks: 4 rows per bank, fewer than a word.
  expectError(tinyWith("capacity_kib: 4\n    banks: 4\n",
                       "capacity_kib: 1\n    banks: 64\n    rows_per_word: 8\n"),
              {16, 20, "memory.scratchpad.rows_per_word", "exceeds the 4 rows of a bank"});
  expectError(tinyWith(key, "    banks: 4\n    rows_per_word: 3\n  accumulator:"),
              {16, 20, "memory.scratchpad.rows_per_word", "is not a power of two"});
}
TEST(ConfigErrors, CrossKeyRuleOnADefaultedKey) {
  // dma.max_bytes is not in the file: the error points at the top level and says so.
  std::string t = tinyWith("mesh_rows: 4\n  mesh_cols: 4", "mesh_rows: 32\n  mesh_cols: 32");
  t = t.replace(t.find("capacity_kib: 4\n    banks: 2"), 28, "capacity_kib: 64\n    banks: 2");
  expectError(t, {1, 1, "dma.max_bytes",
                  "expected at least DIM*acc_width/8 = 128 "
                  "(dma.max_bytes is not set: its default is 64)"});
}
TEST(ConfigErrors, WrongTypeBool) {
  expectError(
      std::string(kTiny) + "sparsity:\n  tensordash:\n    enabled: yes\n",
      {21, 14, "sparsity.tensordash.enabled", "invalid value 'yes'; expected true or false"});
}
TEST(ConfigErrors, UnknownTopLevelKey) {
  expectError(std::string(kTiny) + "arrays: 1\n", {19, 1, "arrays", "unknown key (did you mean"});
}
TEST(ConfigErrors, BovedaOnChipNeedsBoveda) {
  expectError(std::string(kTiny) + "compression:\n  boveda:\n    on_chip: true\n",
              {21, 14, "compression.boveda.on_chip", "needs compression.boveda.enabled: true"});
}
TEST(ConfigErrors, BovedaOnChipRowNarrowerThanStreamWord) {
  // tiny: DIM 4 x int8 = 32-bit rows, 64-bit bus and containers.
  expectError(std::string(kTiny) + "compression:\n  boveda:\n    enabled: true\n"
                                   "    container_bits: 64\n    on_chip: true\n",
              {23, 14, "compression.boveda.on_chip", "narrower than the decompressor's stream"});
}
TEST(ConfigErrors, BovedaOnChipContainerIsWholeVectorPeRows) {
  // DIM 4 x 4 lanes x int8 = 128-bit scratchpad rows: a 64-bit container is half a row.
  expectError(tinyWith("  dataflow: both", "  lanes: 4\n  dataflow: both") +
                  "compression:\n  boveda:\n    enabled: true\n"
                  "    container_bits: 64\n    on_chip: true\n",
              {23, 21, "compression.boveda.container_bits",
               "is not a whole number of scratchpad rows (DIM*lanes*input_width = 128 bits)"});
}
TEST(ConfigAccepts, BovedaWithVectorPes) {
  const Config c = loadConfigText(tinyWith("  dataflow: both", "  lanes: 4\n  dataflow: both") +
                                      "compression:\n  boveda:\n    enabled: true\n"
                                      "    container_bits: 128\n    on_chip: true\n",
                                  "tiny_l4.yaml");
  EXPECT_TRUE(c.boveda.enabled);
  EXPECT_TRUE(c.boveda.onChip);
  EXPECT_EQ(c.array.lanes, 4);
}
TEST(ConfigErrors, BovedaHeaderTooNarrowFor16BitElements) {
  expectError(tinyWith("input_width: 8", "input_width: 16") +
                  "compression:\n  boveda:\n    enabled: true\n    header_bits: 4\n",
              {22, 18, "compression.boveda.header_bits",
               "cannot encode every group width 0..16 of 16-bit elements; expected at least 5"});
}
TEST(ConfigAccepts, BovedaEnabled) {
  const Config c =
      loadConfigText(std::string(kTiny) + "compression:\n  boveda:\n    enabled: true\n"
                                          "    container_bits: 128\n",
                     "tiny.yaml");
  EXPECT_TRUE(c.boveda.enabled);
  EXPECT_EQ(c.boveda.containerBits, 128);
}
TEST(ConfigErrors, TensorDashNeedsVectorPes) {
  expectError(std::string(kTiny) + "sparsity:\n  tensordash:\n    enabled: true\n",
              {21, 14, "sparsity.tensordash.enabled", "expected false, or array.lanes >= 2"});
}
TEST(ConfigErrors, FileThatDoesNotExist) {
  EXPECT_THROW(loadConfigFile("/nonexistent/x.yaml"), ConfigError);
  EXPECT_THROW(loadConfigFile(BY_SOURCE_DIR), ConfigError);
}

TEST(Schema, EveryFieldHasDocsAndARange) {
  for (const FieldSpec& f : schemaFields()) {
    EXPECT_FALSE(f.doc.empty()) << f.key;
    if (f.kind == Kind::Int) {
      EXPECT_LT(f.min, f.max) << f.key;
    }
    if (f.defaultValue) {
      // Every default must itself be an allowed value.
      Config c;
      EXPECT_NO_THROW(f.set(c, *f.defaultValue)) << f.key;
      EXPECT_EQ(f.get(c), *f.defaultValue) << f.key;
    }
  }
}
