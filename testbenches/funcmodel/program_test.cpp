// The program text format: printing, parsing, round trips and syntax errors.
#include "funcmodel/encode.h"
#include "funcmodel/program.h"

#include <gtest/gtest.h>

using namespace by::funcmodel;

TEST(FuncModelProgram, FormatsWithTableNames) {
  ConfigLdArgs l;
  l.stride = 0x10;
  EXPECT_EQ(formatInstruction(configLd(l)), "CONFIG_LD 0x3f80000000000101 0x0000000000000010");
  EXPECT_EQ(formatInstruction(mvin(1, 0x80000000, spAddr(3), 4, 5)),
            "MVIN2 0x0000000080000000 0x0004000500000003");
  EXPECT_EQ(instructionName(Instruction{0, 3, 0}), "CONFIG");
  EXPECT_EQ(instructionName(Instruction{127, 0, 0}), "FUNCT_127");
  EXPECT_EQ(instructionName(Instruction{9, 0, 0}), "LOOP_WS_CONFIG_BOUNDS");
  EXPECT_EQ(instructionName(flush()), "FLUSH");
}

TEST(FuncModelProgram, RoundTrip) {
  CounterOpArgs c;
  c.configure = true;
  c.index = 7;
  c.event = 5;
  c.external = true;
  const Program p = {configEx(ConfigExArgs{}),
                     configSt(ConfigStArgs{}),
                     configRaw(3, 0xffff, 0xabc),
                     mvout(0xdeadbeef, accAddr(7, true, true), 65535, 65535),
                     preload({garbageAddr(), 4, 4}, {accAddr(0), 1, 1}),
                     compute(false, {spAddr(1), 2, 3}, {spAddr(4), 5, 6}),
                     counterOp(c),
                     Instruction{127, ~0ull, ~0ull},
                     Instruction{12345, 1, 2}};
  const std::string text = formatProgram(p, {"first", "", "bad type"});
  EXPECT_NE(text.find("CONFIG_EX 0x"), std::string::npos);
  EXPECT_NE(text.find(" # first\n"), std::string::npos);
  EXPECT_NE(text.find("CONFIG 0x000000000000ffff"), std::string::npos);
  EXPECT_EQ(parseProgram(text), p);
}

TEST(FuncModelProgram, ParsesCommentsBlankLinesAndBareHex) {
  const Program p = parseProgram("# a program\n\n  FLUSH 0 0  # nothing\nMVIN 80000000 0x1\n"
                                 "CONFIG 0x3 0\nFUNCT_200 0 0\n");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0], flush());
  EXPECT_EQ(p[1].funct, 2u);
  EXPECT_EQ(p[1].rs1, 0x80000000u);
  EXPECT_EQ(p[1].rs2, 1u);
  EXPECT_EQ(p[2].funct, 0u);
  EXPECT_EQ(p[3].funct, 200u);
}

TEST(FuncModelProgram, SyntaxErrorsNameTheLine) {
  auto lineOf = [](const std::string& text) {
    try {
      parseProgram(text);
    } catch (const ProgramParseError& e) {
      return e.line();
    }
    return 0;
  };
  EXPECT_EQ(lineOf("FLUSH 0 0\nMVOUTT 0 0\n"), 2);
  EXPECT_EQ(lineOf("FLUSH 0\n"), 1);
  EXPECT_EQ(lineOf("FLUSH 0 0 0\n"), 1);
  EXPECT_EQ(lineOf("\n\nFLUSH 0x 0\n"), 3);
  EXPECT_EQ(lineOf("FLUSH 0x10000000000000000 0\n"), 1); // 17 digits
  EXPECT_EQ(lineOf("FLUSH 12g 0\n"), 1);
  EXPECT_EQ(lineOf("CONFIG_LD 0x0 0\n"), 1); // rs1[1:0] = 0 is CONFIG_EX
  EXPECT_EQ(lineOf("FUNCT_ 0 0\n"), 1);
  EXPECT_EQ(lineOf("FUNCT_x1 0 0\n"), 1);
  EXPECT_EQ(lineOf("FLUSH 0 0 # ok\n"), 0);
}
