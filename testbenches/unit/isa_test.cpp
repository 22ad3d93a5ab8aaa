// The ISA table against Gemmini's documented encodings, written out independently here from
// gemmini.h's macros (gemmini_extended_mvin, _preload, _config_ex, _config_ld, _config_st,
// counter access): every field the table defines must decode what those macros encode.
#include "hwspec/isa.h"

#include <gtest/gtest.h>
#include <set>

using namespace by::hw::isa;

namespace {
constexpr int kAddrLen = 32; // Gemmini's ADDR_LEN
}

TEST(Isa, FunctCodesAreGemminis) {
  // gemmini.h: k_CONFIG 0, k_MVIN2 1, k_MVIN 2, k_MVOUT 3, k_COMPUTE_PRELOADED 4,
  // k_COMPUTE_ACCUMULATE 5, k_PRELOAD 6, k_FLUSH 7, k_MVIN3 14, k_COUNTER 126.
  EXPECT_EQ(command("CONFIG_EX").funct, 0);
  EXPECT_EQ(command("MVIN2").funct, 1);
  EXPECT_EQ(command("MVIN").funct, 2);
  EXPECT_EQ(command("MVOUT").funct, 3);
  EXPECT_EQ(command("COMPUTE_PRELOADED").funct, 4);
  EXPECT_EQ(command("COMPUTE_ACCUMULATED").funct, 5);
  EXPECT_EQ(command("PRELOAD").funct, 6);
  EXPECT_EQ(command("FLUSH").funct, 7);
  EXPECT_EQ(command("MVIN3").funct, 14);
  EXPECT_EQ(command("COUNTER_OP").funct, 126);
  EXPECT_EQ(command("CONFIG_LD").configType, 1);
  EXPECT_EQ(command("CONFIG_ST").configType, 2);
}

TEST(Isa, MvinAndComputeOperands) {
  // gemmini_extended_mvin: rs2 = rows << (ADDR_LEN + 16) | cols << ADDR_LEN | spad_addr
  const uint64_t rs2 = (uint64_t{13} << (kAddrLen + 16)) | (uint64_t{77} << kAddrLen) | 0x80000123u;
  for (const char* name : {"MVIN", "MVIN2", "MVIN3", "MVOUT"}) {
    const Command& c = command(name);
    EXPECT_EQ(c.rs2Field("rows").extract(rs2), 13u) << name;
    EXPECT_EQ(c.rs2Field("cols").extract(rs2), 77u) << name;
    EXPECT_EQ(c.rs2Field("local_addr").extract(rs2), 0x80000123u) << name;
    EXPECT_EQ(c.rs1Field("dram_addr").extract(0x123456789abcull), 0x123456789abcull) << name;
  }
  for (const char* name : {"PRELOAD", "COMPUTE_PRELOADED", "COMPUTE_ACCUMULATED"}) {
    const Command& c = command(name);
    EXPECT_EQ(c.rs1Field("rows").extract(rs2), 13u) << name;
    EXPECT_EQ(c.rs1Field("cols").extract(rs2), 77u) << name;
    EXPECT_EQ(c.rs2Field("local_addr").extract(rs2), 0x80000123u) << name;
  }
}

TEST(Isa, ConfigOperands) {
  // gemmini_extended_config_ex: rs1 = acc_scale_bits << 32 | A_stride << 16 | B_transpose << 9
  //   | A_transpose << 8 | set_only_strides << 7 | act << 3 | dataflow << 2 | CONFIG_EX;
  //   rs2 = C_stride << 48 | sys_shift
  const uint64_t ex1 = (uint64_t{0x3f800000} << 32) | (uint64_t{3} << 16) | (1u << 9) | (1u << 8) |
                       (1u << 7) | (1u << 3) | (1u << 2) | 0;
  const uint64_t ex2 = (uint64_t{5} << 48) | 9;
  const Command& ex = command("CONFIG_EX");
  EXPECT_EQ(ex.rs1Field("cmd_type").extract(ex1), 0u);
  EXPECT_EQ(ex.rs1Field("dataflow").extract(ex1), 1u);
  EXPECT_EQ(ex.rs1Field("activation").extract(ex1), 1u);
  EXPECT_EQ(ex.rs1Field("set_only_strides").extract(ex1), 1u);
  EXPECT_EQ(ex.rs1Field("a_transpose").extract(ex1), 1u);
  EXPECT_EQ(ex.rs1Field("b_transpose").extract(ex1), 1u);
  EXPECT_EQ(ex.rs1Field("a_stride").extract(ex1), 3u);
  EXPECT_EQ(ex.rs1Field("acc_scale").extract(ex1), 0x3f800000u);
  EXPECT_EQ(ex.rs2Field("in_shift").extract(ex2), 9u);
  EXPECT_EQ(ex.rs2Field("c_stride").extract(ex2), 5u);
  // gemmini_extended4_config_ld: rs1 = scale_bits << 32 | block_mvin_stride << 16 |
  //   pixel_repeats << 8 | id << 3 | shrunk << 2 | CONFIG_LD; rs2 = stride
  const uint64_t ld1 =
      (uint64_t{0x3f800000} << 32) | (uint64_t{16} << 16) | (1u << 8) | (2u << 3) | (1u << 2) | 1;
  const Command& ld = command("CONFIG_LD");
  EXPECT_EQ(ld.rs1Field("cmd_type").extract(ld1), 1u);
  EXPECT_EQ(ld.rs1Field("shrink").extract(ld1), 1u);
  EXPECT_EQ(ld.rs1Field("state_id").extract(ld1), 2u);
  EXPECT_EQ(ld.rs1Field("pixel_repeats").extract(ld1), 1u);
  EXPECT_EQ(ld.rs1Field("block_stride").extract(ld1), 16u);
  EXPECT_EQ(ld.rs1Field("scale").extract(ld1), 0x3f800000u);
  EXPECT_EQ(ld.rs2Field("stride").extract(0xdeadbeefcafeull), 0xdeadbeefcafeull);
  // gemmini_extended_config_st: rs1 = ocols << 56 | orows << 48 | pocols << 40 | porows << 32 |
  //   pool_out_dim << 24 | lpad << 10 | upad << 8 | pool_size << 6 | pool_stride << 4 |
  //   acc_act << 2 | CONFIG_ST; rs2 = acc_scale_bits << 32 | stride
  const uint64_t st1 = (uint64_t{11} << 56) | (uint64_t{12} << 48) | (uint64_t{5} << 40) |
                       (uint64_t{6} << 32) | (uint64_t{7} << 24) | (1u << 10) | (2u << 8) |
                       (3u << 6) | (2u << 4) | (1u << 2) | 2;
  const Command& st = command("CONFIG_ST");
  EXPECT_EQ(st.rs1Field("cmd_type").extract(st1), 2u);
  EXPECT_EQ(st.rs1Field("activation").extract(st1), 1u);
  EXPECT_EQ(st.rs1Field("pool_stride").extract(st1), 2u);
  EXPECT_EQ(st.rs1Field("pool_size").extract(st1), 3u);
  EXPECT_EQ(st.rs1Field("upad").extract(st1), 2u);
  EXPECT_EQ(st.rs1Field("lpad").extract(st1), 1u);
  EXPECT_EQ(st.rs1Field("pool_out_dim").extract(st1), 7u);
  EXPECT_EQ(st.rs1Field("porows").extract(st1), 6u);
  EXPECT_EQ(st.rs1Field("pocols").extract(st1), 5u);
  EXPECT_EQ(st.rs1Field("orows").extract(st1), 12u);
  EXPECT_EQ(st.rs1Field("ocols").extract(st1), 11u);
  const uint64_t st2 = (uint64_t{0x3e800000} << 32) | 1234;
  EXPECT_EQ(st.rs2Field("stride").extract(st2), 1234u);
  EXPECT_EQ(st.rs2Field("acc_scale").extract(st2), 0x3e800000u);
}

TEST(Isa, CounterOperands) {
  // CounterController: rs1[0] reset, [1] snapshot reset, [2] snapshot, [3] configure,
  // [6:4] index, [17:12] event, [31] external.
  const uint64_t rs1 = (1u << 31) | (42u << 12) | (5u << 4) | 0xf;
  const Command& c = command("COUNTER_OP");
  EXPECT_EQ(c.rs1Field("reset").extract(rs1), 1u);
  EXPECT_EQ(c.rs1Field("snapshot_reset").extract(rs1), 1u);
  EXPECT_EQ(c.rs1Field("snapshot").extract(rs1), 1u);
  EXPECT_EQ(c.rs1Field("configure").extract(rs1), 1u);
  EXPECT_EQ(c.rs1Field("index").extract(rs1), 5u);
  EXPECT_EQ(c.rs1Field("event").extract(rs1), 42u);
  EXPECT_EQ(c.rs1Field("external").extract(rs1), 1u);
  EXPECT_TRUE(c.writesRd);
}

TEST(Isa, TablesAreConsistent) {
  std::set<std::pair<int, int>> seen;
  for (const Command& c : commands()) {
    EXPECT_TRUE(seen.insert({c.funct, c.configType}).second) << c.name;
    for (const auto* fields : {&c.rs1, &c.rs2}) {
      uint64_t used = 0;
      for (const Field& f : *fields) {
        EXPECT_LE(f.lsb + f.width, 64) << c.name << "." << f.name;
        EXPECT_EQ(used & f.place(~0ull), 0u) << c.name << "." << f.name << " overlaps";
        used |= f.place(~0ull);
      }
    }
  }
  std::set<uint32_t> offsets;
  for (const Register& r : registers()) {
    EXPECT_EQ(r.offset % 4, 0u) << r.name;
    EXPECT_TRUE(offsets.insert(r.offset).second) << r.name;
  }
  std::set<int> codes;
  for (const ErrorCode& e : errorCodes())
    EXPECT_TRUE(codes.insert(e.code).second) << e.name;
}

// The register bit fields the driver reads from brickyard_isa.h: each names a register of the
// table, fits in 32 bits, does not overlap another field of its register, and appears in the
// generated header.
TEST(Isa, RegisterFieldsAreConsistent) {
  std::set<std::string> names;
  for (const auto& r : registers())
    names.insert(r.name);
  const std::string header = cHeader("test");
  for (const auto& f : registerFields()) {
    EXPECT_TRUE(names.count(f.reg)) << f.reg;
    EXPECT_GT(f.width, 0);
    EXPECT_LE(f.lsb + f.width, 32) << f.reg << "." << f.name;
    for (const auto& g : registerFields()) {
      if (&f != &g && f.reg == g.reg) {
        EXPECT_TRUE(f.lsb + f.width <= g.lsb || g.lsb + g.width <= f.lsb)
            << f.reg << "." << f.name << " overlaps " << g.name;
      }
    }
    EXPECT_NE(header.find("#define BY_REG_" + f.reg + "_" + f.name + "_SHIFT " +
                          std::to_string(f.lsb) + "\n"),
              std::string::npos)
        << f.reg << "." << f.name;
  }
  EXPECT_NE(header.find("#define BY_DATAFLOW_WS 1\n"), std::string::npos);
}
