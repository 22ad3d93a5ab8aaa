// The arithmetic helpers in the generated C header (brickyard_params.h) are compiled with
// the host C compiler as C99 and must agree bit for bit with the golden model.
#include "config/loader.h"
#include "contract/headers.h"
#include "golden/arith.h"
#include "seed.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <sstream>

using namespace by;

namespace {

struct Case {
  int64_t x;
  float scale;
  unsigned shift;
};

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p)
    return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  if (pclose(p) != 0)
    out += "\nFAILED: " + cmd;
  return out;
}

} // namespace

TEST(GeneratedHeaders, CArithmeticMatchesGolden) {
  namespace fs = std::filesystem;
  const config::Config c =
      config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
  const fs::path dir = fs::path(BY_BINARY_DIR) / "test-output" / "headers_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "brickyard_params.h") << contract::brickyardParamsHeader(c, "test");
  std::ofstream(dir / "gemmini_params.h") << contract::gemminiParamsHeader(c, "test");

  std::mt19937_64 rng(test::testSeed(99, "C header arithmetic"));
  std::vector<Case> cases;
  const float special[] = {0.0f,
                           1.0f,
                           0.5f,
                           0.25f,
                           1.5f,
                           2.0f,
                           1e-3f,
                           3.0e9f,
                           -0.75f,
                           std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(),
                           1e-40f};
  const int64_t specialX[] = {0, 1, -1, 3, 5, -5, 7, INT32_MAX, INT32_MIN, 16777217, -16777217};
  for (float s : special)
    for (int64_t x : specialX)
      cases.push_back({x, s, static_cast<unsigned>(rng() % 32)});
  std::uniform_int_distribution<int32_t> anyInt(INT32_MIN, INT32_MAX);
  std::uniform_real_distribution<float> anyScale(-4.0f, 4.0f);
  for (int i = 0; i < 5000; ++i)
    cases.push_back({anyInt(rng), std::ldexp(anyScale(rng), -static_cast<int>(rng() % 20)),
                     static_cast<unsigned>(rng() % 32)});

  std::ostringstream prog;
  prog << "#include <stdio.h>\n#include <stdint.h>\n#include \"gemmini_params.h\"\n"
          "typedef union { uint32_t u; float f; } bits_t;\n"
          "static const struct { int64_t x; uint32_t s; unsigned sh; } cases[] = {\n";
  for (const Case& k : cases) {
    uint32_t bits;
    std::memcpy(&bits, &k.scale, 4);
    prog << "  {" << k.x << "LL, 0x" << std::hex << bits << std::dec << "u, " << k.shift << "},\n";
  }
  prog << "};\nint main(void) {\n  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; "
          "++i) {\n    bits_t b; b.u = cases[i].s;\n"
          "    printf(\"%ld %lld %d\\n\", (long)ACC_SCALE(cases[i].x, b.f),\n"
          "           (long long)ROUNDING_RIGHT_SHIFT((int64_t)cases[i].x, (int)cases[i].sh),\n"
          "           (int)by_saturate_elem(cases[i].x));\n  }\n  return 0;\n}\n";
  std::ofstream(dir / "check.c") << prog.str();
  const std::string out = run("cc -std=c99 -Wall -Wextra -Werror -O2 -o " +
                              (dir / "check").string() + " " + (dir / "check.c").string() + " -I" +
                              dir.string() + " 2>&1 && " + (dir / "check").string());
  std::istringstream in(out);
  for (size_t i = 0; i < cases.size(); ++i) {
    long long scaled = 0, shifted = 0, sat = 0;
    ASSERT_TRUE(static_cast<bool>(in >> scaled >> shifted >> sat)) << out.substr(0, 2000);
    const Case& k = cases[i];
    // Gemmini's ACC_SCALE saturates to elem_t (the value a scaled mvout writes).
    EXPECT_EQ(scaled, golden::saturate(golden::accScale(k.x, k.scale, 32), 8))
        << "x=" << k.x << " scale=" << k.scale;
    EXPECT_EQ(shifted, golden::roundingShift(k.x, static_cast<int>(k.shift)))
        << "x=" << k.x << " shift=" << k.shift;
    EXPECT_EQ(sat, golden::saturate(k.x, 8)) << "x=" << k.x;
  }
}
