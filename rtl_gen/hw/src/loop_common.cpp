#include "loop_common.h"

namespace by::hw::loops {

using vlog::Type;

void commandPorts(vlog::Module& m, const std::string& source, bool bstrideIn) {
  m.param("FunctBits", "7", "RoCC funct7");
  m.param("XBits", "64", "rs1, rs2");
  m.param("ErrBits", "8", "an error code (docs/isa.md)");
  m.clockAndReset();
  m.portGroup("Commands in (from " + source + ").");
  m.input("host_valid_i", Type::bit());
  m.output("host_ready_o", Type::bit());
  m.input("host_funct_i", Type::bits("FunctBits"));
  m.input("host_rs1_i", Type::bits("XBits"));
  m.input("host_rs2_i", Type::bits("XBits"));
  m.input("host_xd_i", Type::bit());
  m.input("host_mmio_i", Type::bit());
  if (bstrideIn)
    m.input("host_bstride_i", Type::bits(16), "with host_*: the block stride of a loop's move");
  m.portGroup("Commands out (to the decoder): the input's, or the loop's while one runs.");
  m.output("cmd_valid_o", Type::bit());
  m.input("cmd_ready_i", Type::bit());
  m.output("cmd_funct_o", Type::bits("FunctBits"));
  m.output("cmd_rs1_o", Type::bits("XBits"));
  m.output("cmd_rs2_o", Type::bits("XBits"));
  m.output("cmd_xd_o", Type::bit());
  m.output("cmd_mmio_o", Type::bit());
  m.output("cmd_bstride_o", Type::bits(16),
           "with cmd_*: the block stride of a loop's move (0: the channel's, or DIM for MVOUT)");
}

void outputRegister(vlog::Body& b, StateRegs& regs) {
  regs.add("out_valid", Type::bit(), "1'b0", "out_* holds a command for the decoder")
      .add("out_funct", Type::bits("FunctBits"), "'0")
      .add("out_rs1", Type::bits("XBits"), "'0")
      .add("out_rs2", Type::bits("XBits"), "'0")
      .add("out_bstride", Type::bits("CountBits"), "'0", "out_*'s block stride (cmd_bstride)");
  b.logic("active", Type::bit(), "a loop is issued: the input waits");
  b.logic("host_fire", Type::bit(), "the decoder takes the input's command");
  b.assign("host_fire", "!active && host_valid_i && cmd_ready_i");
}

void nextOutput(vlog::Stmts& n) {
  n.ifElse("out_valid_q && cmd_ready_i", [](vlog::Stmts& s) { s.line("out_valid_d = 1'b0;"); });
  n.ifElse("step && emit", [](vlog::Stmts& s) {
    s.line("out_valid_d = 1'b1;")
        .line("out_funct_d = cmd_funct;")
        .line("out_rs1_d = cmd_rs1;")
        .line("out_rs2_d = cmd_rs2;")
        .line("out_bstride_d = cmd_bstride;");
  });
}

void commandOutputs(vlog::Body& b, bool bstrideIn) {
  b.blank();
  b.comment("Output: the unroller's command while a loop runs, else the input's.");
  b.assign("active", "phase_q != PhIdle || out_valid_q");
  b.assign("cmd_valid_o", "active ? out_valid_q : host_valid_i");
  b.assign("cmd_funct_o", "active ? out_funct_q : host_funct_i");
  b.assign("cmd_rs1_o", "active ? out_rs1_q : host_rs1_i");
  b.assign("cmd_rs2_o", "active ? out_rs2_q : host_rs2_i");
  b.assign("cmd_xd_o", "!active && host_xd_i");
  b.assign("cmd_mmio_o", "!active && host_mmio_i");
  b.assign("cmd_bstride_o",
           std::string("active ? out_bstride_q : ") + (bstrideIn ? "host_bstride_i" : "'0"));
  b.assign("host_ready_o", "!active && cmd_ready_i");
  b.assign("busy_o", "active");
}

} // namespace by::hw::loops
