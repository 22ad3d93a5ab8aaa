// The pieces of per-module synthesis that need no Yosys: cutting an elaborated RTLIL design
// into modules, the children's black-box stubs and the renumbering of internal names that makes
// a module's text independent of its neighbours. (The keys' hash: support_test.)
#include "synthesis/rtlil.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace by::synthesis;

namespace {

// Shaped like `write_rtlil` output after `hierarchy` (abridged).
const char* kDesign = R"(autoidx 7000
attribute \dynports 1
attribute \hdlname "\\by_pe"
attribute \src "by_pe.sv:8.1-150.10"
module $paramod$676d4719\by_pe
  parameter \Lanes 1
  wire width 32 $add$by_pe.sv:100$6423_Y
  wire width 32 $0\c1_q[31:0]
  attribute \src "by_pe.sv:20.3-20.9"
  wire width 8 input 3 \in_a_i
  wire output 2 \out_o
  wire input 1 \clk_i
  cell $add $add$by_pe.sv:100$6423
    parameter \A_WIDTH 32
    connect \Y $add$by_pe.sv:100$6423_Y
  end
  process $proc$by_pe.sv:40$6500
    assign $0\c1_q[31:0] $add$by_pe.sv:100$6423_Y
  end
end
attribute \blackbox 1
module \by_sram_sp
  parameter \Depth 1024
  wire width 10 input 4 \addr_i
end
module \by_mesh
  wire input 1 \clk_i
  cell $paramod$676d4719\by_pe \g[0].u_pe
    connect \clk_i \clk_i
  end
  cell $paramod$676d4719\by_pe \g[1].u_pe
    connect \clk_i \clk_i
  end
  cell by_sram_sp \u_sram
    parameter \Depth 64
  end
end
)";

std::vector<RtlilModule> design() {
  std::istringstream in(kDesign);
  return splitRtlil(in);
}

} // namespace

TEST(SynthUnit, SplitsModulesWithoutSourceLocations) {
  const std::vector<RtlilModule> m = design();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "$paramod$676d4719\\by_pe");
  EXPECT_FALSE(m[0].blackbox);
  EXPECT_TRUE(m[1].blackbox);
  EXPECT_EQ(m[1].name, "\\by_sram_sp");
  EXPECT_EQ(m[0].text.find("\\src"), std::string::npos);
  EXPECT_EQ(m[0].text.rfind("attribute \\dynports 1\n", 0), 0u); // its attributes come along
  EXPECT_EQ(m[0].cellTypes.at("$add"), 1);
  EXPECT_EQ(m[2].cellTypes.at("$paramod$676d4719\\by_pe"), 2);
  EXPECT_EQ(m[2].cellTypes.at("by_sram_sp"), 1);
  EXPECT_NE(m[0].text.find("  process $proc$by_pe.sv:40$6500\n"), std::string::npos);
}

TEST(SynthUnit, StubKeepsPortsAndParameters) {
  const std::string stub = rtlilStub(design()[0]);
  EXPECT_EQ(stub, "attribute \\blackbox 1\n"
                  "attribute \\dynports 1\n"
                  "attribute \\hdlname \"\\\\by_pe\"\n"
                  "module $paramod$676d4719\\by_pe\n"
                  "  parameter \\Lanes 1\n"
                  "  wire width 8 input 3 \\in_a_i\n"
                  "  wire output 2 \\out_o\n"
                  "  wire input 1 \\clk_i\n"
                  "end\n");
}

TEST(SynthUnit, RenumbersCountersButNotModuleNamesOrProcessLevels) {
  size_t count = 0;
  const std::string text = renumberInternalNames(design()[0].text, &count);
  EXPECT_EQ(count, 2u); // 6423 and 6500
  EXPECT_NE(text.find("module $paramod$676d4719\\by_pe\n"), std::string::npos);
  EXPECT_NE(text.find("wire width 32 $add$by_pe.sv:100$1_Y\n"), std::string::npos);
  EXPECT_NE(text.find("cell $add $add$by_pe.sv:100$1\n"), std::string::npos);
  EXPECT_NE(text.find("assign $0\\c1_q[31:0] $add$by_pe.sv:100$1_Y\n"), std::string::npos);
  EXPECT_NE(text.find("process $proc$by_pe.sv:40$2\n"), std::string::npos);
  // The same module elaborated elsewhere (other counter values) gets the same text.
  std::string shifted = design()[0].text;
  for (auto [from, to] : {std::pair<std::string, std::string>{"6423", "9"}, {"6500", "10"}})
    for (size_t at; (at = shifted.find(from)) != std::string::npos;)
      shifted.replace(at, from.size(), to);
  EXPECT_EQ(renumberInternalNames(shifted), text);
}
