// The hardware/software contract (contract/): the files `brickyard gen` writes are exactly those
// its manifest lists, and the compiler's view of them (softwareFiles, no RTL) is the same text
// gen writes.
#include "config/loader.h"
#include "config/schema.h"
#include "contract/software_files.h"
#include "emit/generate.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

using namespace by;

class Contract : public ::testing::TestWithParam<std::string> {};

TEST_P(Contract, ManifestListsEveryFileGenWrites) {
  const config::Config c = config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/" + GetParam());
  std::map<std::string, std::string> written;
  for (const emit::OutputFile& f : emit::renderOutputs(c))
    EXPECT_TRUE(written.emplace(f.path, f.text).second) << "written twice: " << f.path;
  ASSERT_EQ(written.count("manifest.json"), 1u);
  const auto manifest = nlohmann::json::parse(written.at("manifest.json"));
  EXPECT_EQ(manifest["config_hash"], config::configHash(c));
  EXPECT_EQ(manifest["generator"], contract::generatorName());

  std::set<std::string> listed = {"manifest.json"};
  for (const auto& m : manifest["modules"])
    EXPECT_TRUE(listed.insert(m["file"].get<std::string>()).second) << m["file"];
  for (const auto& [key, path] : manifest["files"].items())
    EXPECT_TRUE(listed.insert(path.get<std::string>()).second) << key;
  std::set<std::string> paths;
  for (const auto& [path, text] : written)
    paths.insert(path);
  EXPECT_EQ(paths, listed);
  // The headers every driver build needs, under the names programs include.
  for (const char* h : {"include/brickyard_params.h", "include/gemmini_params.h",
                        "include/brickyard_isa.h", "include/brickyard_soc.h"})
    EXPECT_EQ(written.count(h), 1u) << h;

  // What the compiler builds the driver against, without the RTL: the same files, same text.
  const std::vector<contract::OutputFile> software =
      contract::softwareFiles(c, contract::generatorName());
  EXPECT_EQ(software.size(), contract::softwareFileTable().size());
  for (const contract::OutputFile& f : software) {
    ASSERT_EQ(written.count(f.path), 1u) << f.path;
    EXPECT_EQ(written.at(f.path), f.text) << f.path;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, Contract,
                         ::testing::Values("configs/tiny.yaml", "configs/td8.yaml",
                                           "testbenches/configs/boveda16.yaml"),
                         [](const auto& info) {
                           std::string n = info.param.substr(info.param.rfind('/') + 1);
                           return n.substr(0, n.find('.'));
                         });

// The reservation station has the config's number of slots (and ids to name them), and the
// manifest records the key, as for every other hardware key.
TEST(Contract, ReservationStationTakesTheConfigsEntries) {
  for (int entries : {4, 16, 32}) {
    config::Config c = config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
    c.commands.reservationStationEntries = entries;
    std::string rs, manifest;
    for (const emit::OutputFile& f : emit::renderOutputs(c)) {
      if (f.path == "rtl/by_reservation_station.sv")
        rs = f.text;
      if (f.path == "manifest.json")
        manifest = f.text;
    }
    ASSERT_FALSE(rs.empty());
    EXPECT_NE(rs.find("localparam int Entries = " + std::to_string(entries) + ";"),
              std::string::npos)
        << entries;
    int idBits = 0;
    while ((1 << idBits) < entries)
      ++idBits;
    EXPECT_TRUE(std::regex_search(
        rs, std::regex("parameter int IdBits +=  *" + std::to_string(idBits) + ",")))
        << entries;
    EXPECT_EQ(nlohmann::json::parse(manifest)["config"]["commands"]["reservation_station_entries"],
              entries);
  }
}
