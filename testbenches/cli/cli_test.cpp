// The brickyard command as a user runs it: exit codes, messages, files written (and not
// written), for every shipped config and every malformed config in testbenches/configs/bad.
#include "cli_runner.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using by::test::CliResult;
using by::test::runBrickyard;

namespace {

const std::vector<std::string> kConfigs = {"tiny", "default", "tiles2x2", "lanes4", "large32"};

fs::path scratch(const std::string& name) {
  fs::path p = fs::path(BY_BINARY_DIR) / "test-output" / "cli_test" / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());
  return p;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l))
    out.push_back(l);
  return out;
}

std::string config(const std::string& name) {
  return std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml";
}

} // namespace

TEST(Cli, HelpForEveryCommand) {
  CliResult top = runBrickyard({"--help"});
  EXPECT_EQ(top.status, 0);
  for (const char* cmd : {"gen", "lint", "synth", "doc"}) {
    CliResult r = runBrickyard({cmd, "--help"});
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.out.find(std::string("usage: brickyard ") + cmd), std::string::npos) << r.out;
    EXPECT_NE(top.out.find(cmd), std::string::npos);
  }
}

TEST(Cli, BadCommandLinesAreRejectedWithExit2) {
  EXPECT_EQ(runBrickyard({}).status, 2);
  EXPECT_EQ(runBrickyard({"frobnicate"}).status, 2);
  EXPECT_EQ(runBrickyard({"gen", config("tiny")}).status, 2); // no -o
  EXPECT_EQ(runBrickyard({"gen", config("tiny"), "-o"}).status, 2);
  EXPECT_EQ(runBrickyard({"gen", "--bogus", config("tiny"), "-o", "x"}).status, 2);
  EXPECT_EQ(runBrickyard({"lint", BY_SOURCE_DIR}).status, 2); // not a gen output
  EXPECT_EQ(runBrickyard({"synth", "/nonexistent"}).status, 2);
  EXPECT_EQ(runBrickyard({"synth", "/nonexistent", "-j", "0"}).status, 2);
  EXPECT_EQ(runBrickyard({"synth", "/nonexistent", "-j", "two"}).status, 2);
  EXPECT_EQ(runBrickyard({"doc", "nothing"}).status, 2);
}

TEST(Cli, GenWritesEverythingForEveryConfig) {
  for (const std::string& name : kConfigs) {
    const fs::path out = scratch("gen_" + name);
    CliResult r = runBrickyard({"gen", config(name), "-o", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    const auto manifest = nlohmann::json::parse(readFile(out / "manifest.json"));
    EXPECT_EQ(manifest["config_name"], name);
    // Every shipped config is a whole accelerator (also lanes4's vector PEs); only the
    // TensorDash test configs get their bare array until the controllers drive it.
    EXPECT_EQ(manifest["top"], "by_accelerator");
    EXPECT_EQ(manifest["config_hash"].get<std::string>().size(), 16u);
    EXPECT_EQ(manifest["config"]["array"]["mesh_rows"].get<int>() *
                  manifest["config"]["array"]["tile_rows"].get<int>(),
              manifest["derived"]["dim"].get<int>());
    for (const auto& m : manifest["modules"])
      EXPECT_TRUE(fs::exists(out / m["file"].get<std::string>())) << m["file"];
    const auto list = lines(readFile(out / "rtl" / "filelist.f"));
    EXPECT_EQ(list.size(), manifest["modules"].size());
    for (const auto& f : list)
      EXPECT_TRUE(fs::exists(out / "rtl" / f)) << f;
    for (const char* h : {"include/brickyard_params.h", "include/gemmini_params.h"}) {
      const std::string text = readFile(out / h);
      EXPECT_NE(text.find(manifest["config_hash"].get<std::string>()), std::string::npos) << h;
    }
    EXPECT_NE(readFile(out / "include/gemmini_params.h").find("#define DIM BY_DIM"),
              std::string::npos);
    // Regenerating replaces the previous output in place.
    ASSERT_EQ(runBrickyard({"gen", config(name), "-o", out.string(), "--quiet"}).status, 0);
  }
}

TEST(Cli, GenIsDeterministic) {
  const fs::path a = scratch("det_a"), b = scratch("det_b");
  ASSERT_EQ(runBrickyard({"gen", config("default"), "-o", a.string()}).status, 0);
  ASSERT_EQ(runBrickyard({"gen", config("default"), "-o", b.string()}).status, 0);
  for (const auto& entry : fs::recursive_directory_iterator(a)) {
    if (entry.is_regular_file()) {
      EXPECT_EQ(readFile(entry.path()), readFile(b / fs::relative(entry.path(), a)))
          << entry.path();
    }
  }
}

TEST(Cli, MalformedConfigsGiveOneLocatedErrorAndWriteNothing) {
  const fs::path dir = fs::path(BY_SOURCE_DIR) / "testbenches" / "configs" / "bad";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml")
      continue;
    ++count;
    // First line: "# expect: LINE:COL KEY" (KEY "-" when the error names no key).
    const std::string text = readFile(entry.path());
    std::smatch m;
    std::string expectPos = "1:1", expectKey = "-";
    const std::string firstLine = text.substr(0, text.find('\n'));
    if (std::regex_search(firstLine, m, std::regex("# expect: (\\d+:\\d+) (\\S+)"))) {
      expectPos = m[1];
      expectKey = m[2];
    } else {
      EXPECT_TRUE(text.empty()) << "missing '# expect:' line";
    }
    const fs::path out = scratch("bad_" + entry.path().stem().string());
    CliResult r = runBrickyard({"gen", entry.path().string(), "-o", out.string()});
    SCOPED_TRACE(entry.path().filename().string() + ": " + r.err);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty());
    const auto errLines = lines(r.err);
    ASSERT_EQ(errLines.size(), 1u);
    const std::string prefix = entry.path().string() + ":" + expectPos +
                               ": error: " + (expectKey == "-" ? "" : expectKey + ": ");
    EXPECT_EQ(errLines[0].rfind(prefix, 0), 0u) << "expected prefix " << prefix;
    // "KEY: what is wrong; what is allowed"
    EXPECT_NE(errLines[0].find("; ", prefix.size()), std::string::npos) << "says what is allowed";
    EXPECT_FALSE(fs::exists(out)) << "output written for a rejected config";
    for (const auto& e : fs::directory_iterator(out.parent_path()))
      EXPECT_EQ(e.path().filename().string().find(".staging"), std::string::npos) << e.path();
  }
  EXPECT_GE(count, 12);
}

TEST(Cli, FailedGenLeavesExistingOutputUntouched) {
  const fs::path out = scratch("keep");
  ASSERT_EQ(runBrickyard({"gen", config("tiny"), "-o", out.string()}).status, 0);
  const std::string before = readFile(out / "manifest.json");
  const fs::path bad = fs::path(BY_SOURCE_DIR) / "testbenches/configs/bad/typo_key.yaml";
  EXPECT_EQ(runBrickyard({"gen", bad.string(), "-o", out.string()}).status, 2);
  EXPECT_EQ(readFile(out / "manifest.json"), before);
}

TEST(Cli, GenRefusesToReplaceAForeignDirectory) {
  const fs::path out = scratch("foreign");
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "precious";
  CliResult r = runBrickyard({"gen", config("tiny"), "-o", out.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("refusing"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(out / "thesis.tex"), "precious");
}

// --config NAME is a shipped config, found next to the executable (share/brickyard/configs, the
// same layout in the build tree as in an installation); a config of the tests goes by its path.
TEST(Cli, ConfigNamesAreTheShippedConfigs) {
  const fs::path shipped = fs::path(BY_BINARY_DIR) / "share" / "brickyard" / "configs";
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(fs::path(BY_SOURCE_DIR) / "configs"))
    if (e.path().extension() == ".yaml") {
      names.push_back(e.path().stem().string());
      EXPECT_EQ(readFile(shipped / e.path().filename()), readFile(e.path())) << e.path();
    }
  EXPECT_EQ(std::distance(fs::directory_iterator(shipped), fs::directory_iterator()),
            std::ptrdiff_t(names.size()));
  const std::string elf = scratch("names").string() + "/none.elf";
  // A shipped name resolves: what is rejected is the (missing) program.
  CliResult tiny = runBrickyard({"sim", "--config", "tiny", elf});
  EXPECT_EQ(tiny.status, 2);
  EXPECT_NE(tiny.err.find("none.elf"), std::string::npos) << tiny.err;
  // A test config's name does not; the message lists the shipped ones.
  CliResult test = runBrickyard({"sim", "--config", "td_l4", elf});
  EXPECT_EQ(test.status, 2);
  EXPECT_NE(test.err.find("config 'td_l4' is neither a file nor a shipped config ("),
            std::string::npos)
      << test.err;
  for (const std::string& n : names)
    EXPECT_NE(test.err.find(n), std::string::npos) << n << " not listed: " << test.err;
  EXPECT_NE(test.err.find("a config of the tests goes by its path"), std::string::npos);
}
