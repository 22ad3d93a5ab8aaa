// The command frontend: the AXI4-Lite control registers (the ISA table's register map), the
// RoCC command and response ports, the command queue both feed, error and interrupt
// registers, the 64-bit performance counters and the COUNTER_OP event counters.
#include "cmd_frontend.h"

#include "axi_ports.h"
#include "encodings.h"
#include "hwspec/isa.h"
#include "text_util.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace by::hw {

using vlog::Type;

namespace {

// "12'h040": a register offset.
std::string hexOffset(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "12'h%03x", v);
  return s;
}

// The localparam naming register `name`: RegCmdPush for CMD_PUSH.
std::string regConst(const std::string& name) {
  return "Reg" + upperCamel(name);
}

const isa::RegisterField& registerField(const std::string& reg, const std::string& name) {
  for (const isa::RegisterField& f : isa::registerFields())
    if (f.reg == reg && f.name == name)
      return f;
  throw std::logic_error("no field " + name + " in register " + reg);
}

/// A 32-bit register value assembled from its bit fields in isa::registerFields() (one source
/// of truth for the positions the driver's header also takes): `fields` gives every field of
/// `reg` an expression of the field's width; unnamed bits read as zero.
std::string packRegister(const std::string& reg, const std::map<std::string, std::string>& fields) {
  std::vector<const isa::RegisterField*> order;
  for (const isa::RegisterField& f : isa::registerFields())
    if (f.reg == reg)
      order.push_back(&f);
  std::sort(order.begin(), order.end(),
            [](const auto* x, const auto* y) { return x->lsb > y->lsb; });
  if (order.size() != fields.size())
    throw std::logic_error("packRegister: " + reg + " has " +
                           num(static_cast<long long>(order.size())) + " fields, " +
                           num(static_cast<long long>(fields.size())) + " given");
  std::string out = "{";
  int top = 32;
  for (const isa::RegisterField* f : order) {
    if (f->lsb + f->width < top)
      out += num(top - f->lsb - f->width) + "'(0), ";
    out += num(f->width) + "'(" + fields.at(f->name) + "), ";
    top = f->lsb;
  }
  if (top > 0)
    out += num(top) + "'(0), ";
  return out.substr(0, out.size() - 2) + "}";
}

// The readable registers' values (write-only ones read as zero and are left out).
std::vector<std::pair<std::string, std::string>> readValues(const AccelParams& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const isa::Register& r : isa::registers()) {
    std::string value;
    if (r.name == "ID")
      value = "IdValue";
    else if (r.name == "VERSION")
      value = "Version";
    else if (r.name == "STATUS")
      value = packRegister("STATUS", {{"BUSY", "busy_i"},
                                      {"QUEUE_FULL", "!q_in_ready"},
                                      {"ERROR_PENDING", "error_pending"},
                                      {"RESP_VALID", "resp_valid_q"}});
    else if (r.name == "ERROR")
      value = packRegister("ERROR", {{"CODE", "error_code_q"}, {"FUNCT", "error_funct_q"}});
    else if (r.name == "ERROR_COUNT")
      value = "error_count_q";
    else if (r.name == "IRQ_ENABLE")
      value = packRegister(
          "IRQ_ENABLE", {{"IDLE", "irq_enable_q[IrqIdle]"}, {"ERROR", "irq_enable_q[IrqError]"}});
    else if (r.name == "IRQ_STATUS")
      value = packRegister(
          "IRQ_STATUS", {{"IDLE", "irq_status_q[IrqIdle]"}, {"ERROR", "irq_status_q[IrqError]"}});
    else if (r.name == "CMD_FUNCT")
      value = "RegBits'(cmd_funct_q)";
    else if (r.name == "CMD_RS1_LO" || r.name == "CMD_RS1_HI" || r.name == "CMD_RS2_LO" ||
             r.name == "CMD_RS2_HI")
      value = "cmd_" +
              std::string(r.name == "CMD_RS1_LO" || r.name == "CMD_RS1_HI" ? "rs1" : "rs2") +
              (r.name.back() == 'O' ? "_lo_q" : "_hi_q");
    else if (r.name == "RESP_LO")
      value = "resp_q[RegBits-1:0]";
    else if (r.name == "RESP_HI")
      value = "resp_q[XBits-1:RegBits]";
    else if (r.name == "HW_DIM")
      value = "RegBits'(" + num(p.dim) + ")";
    else if (r.name == "HW_LANES")
      value = "RegBits'(" + num(p.array.lanes) + ")";
    else if (r.name == "HW_SP_ROWS")
      value = "RegBits'(" + num(p.derived.spRows) + ")";
    else if (r.name == "HW_ACC_ROWS")
      value = "RegBits'(" + num(p.derived.accRows) + ")";
    else if (r.name == "HW_FEATURES")
      value = packRegister(
          "HW_FEATURES",
          {{"WS", p.array.hasWs ? "1'b1" : "1'b0"},
           {"OS", p.array.hasOs ? "1'b1" : "1'b0"},
           {"TENSORDASH", p.config.tensordash.enabled ? "1'b1" : "1'b0"},
           {"BOVEDA", p.config.boveda.enabled ? "1'b1" : "1'b0"},
           {"LOOP_WS", p.config.loops.ws ? "1'b1" : "1'b0"},
           {"LOOP_CONV_WS", p.config.loops.conv && p.array.hasWs ? "1'b1" : "1'b0"},
           {"LOOP_CONV_OS", p.config.loops.conv && p.array.hasOs ? "1'b1" : "1'b0"},
           {"TD_SCHEDULE_B",
            p.config.tensordash.enabled && p.config.tensordash.scheduleB ? "1'b1" : "1'b0"},
           {"TRANSPOSER", !p.config.tensordash.enabled && p.lanes == 1 ? "1'b1" : "1'b0"},
           {"TABLE", p.config.activations.table ? "1'b1" : "1'b0"}});
    else if (r.offset >= isa::kPerfRegisterBase) {
      const int idx = static_cast<int>((r.offset - 0x100) / 8);
      value = (r.offset % 8 == 0) ? "perf_count[" + num(idx) + "][RegBits-1:0]" : "perf_hi_q";
    }
    if (!value.empty())
      out.emplace_back(r.name, value);
  }
  return out;
}

} // namespace

std::vector<PerfEvent> perfEvents(const AccelParams& p) {
  const int macBits = macCountBits(p);
  const int byteBits = config::log2Exact(p.maxBytes) + 2;
  return {
      {"CYCLES", "", 1},
      {"BUSY_CYCLES", "ev_busy_i", 1},
      {"MACS", "ev_macs_i", macBits},
      {"MACS_SKIPPED", "ev_macs_skipped_i", macBits},
      {"EXEC_ACTIVE_CYCLES", "ev_exec_active_i", 1},
      {"LOAD_ACTIVE_CYCLES", "ev_load_active_i", 1},
      {"STORE_ACTIVE_CYCLES", "ev_store_active_i", 1},
      {"DMA_READ_BYTES", "ev_dma_read_bytes_i", byteBits},
      {"DMA_WRITE_BYTES", "ev_dma_write_bytes_i", byteBits},
      {"STALL_DEPENDENCY_CYCLES", "ev_stall_dependency_i", 1},
      {"STALL_BANK_CYCLES", "ev_stall_bank_i", 1},
      {"STALL_DMA_CYCLES", "ev_stall_dma_i", 1},
      {"COMMANDS", "ev_commands_i", 2},
      {"COMPRESSED_BYTES", "ev_compressed_bytes_i", byteBits},
      {"WINDOW_STALLS", "ev_window_stalls_i", 1},
      {"COMPUTE_BEATS", "ev_compute_beats_i", 1},
      {"FEED_STALLS", "ev_feed_stalls_i", 1},
      {"SHORT_BEATS", "ev_short_beats_i", 1},
      {"WAIT_DMA_CYCLES", "ev_wait_dma_i", 1},
      {"WAIT_DEPENDENCY_CYCLES", "ev_wait_dependency_i", 1},
      {"SP_READS", "ev_sp_reads_i", kAccessBits},
      {"SP_WRITES", "ev_sp_writes_i", kAccessBits},
      {"ACC_READS", "ev_acc_reads_i", kAccessBits},
      {"ACC_WRITES", "ev_acc_writes_i", kAccessBits},
  };
}

vlog::Module CmdFrontendGenerator::build() const {
  vlog::Module m(names::kFrontend,
                 "Command frontend: AXI4-Lite control registers (docs/isa.md), RoCC command and "
                 "response ports, the command queue, error and interrupt registers, 64-bit "
                 "performance counters and the 8 COUNTER_OP counters.");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  IsaFieldWires f(b, "ctr_");
  StateRegs regs(b);
  commandQueue(b, regs);
  axiLite(b, regs);
  errors(b, regs);
  perfCounters(b, regs);
  counterFile(b, regs, f);
  readMux(b);
  b.comment("Next state.");
  nextState(regs.next());
  return m;
}

void CmdFrontendGenerator::ports(vlog::Module& m) const {
  const int byteBits = config::log2Exact(p_.maxBytes) + 2;
  m.param("FunctBits", "7", "RoCC funct7");
  m.param("XBits", "64", "rs1, rs2 and responses (XLEN)");
  m.param("RegBits", "32", "a control register: AXI4-Lite data");
  m.param("LiteAddrBits", "16", "AXI4-Lite byte addresses");
  m.param("ErrBits", "8", "an error code (docs/isa.md)");
  m.param("ChannelBits", num(loadChannelEncoding().width), "load_channel_e");
  m.param("EventIds", "64", "Gemmini counter event ids");
  m.param("RobBits", "8", "operations of a kind in the reservation station");
  m.param("ByteBits", num(byteBits), "DMA bytes per cycle");
  m.clockAndReset();
  m.portGroup("RoCC command port and response.");
  m.input("rocc_cmd_valid_i", Type::bit());
  m.output("rocc_cmd_ready_o", Type::bit());
  m.input("rocc_cmd_funct_i", Type::bits("FunctBits"));
  m.input("rocc_cmd_rs1_i", Type::bits("XBits"));
  m.input("rocc_cmd_rs2_i", Type::bits("XBits"));
  m.input("rocc_cmd_xd_i", Type::bit(), "the instruction writes rd: a response follows");
  m.output("rocc_resp_valid_o", Type::bit());
  m.input("rocc_resp_ready_i", Type::bit());
  m.output("rocc_resp_data_o", Type::bits("XBits"));
  m.portGroup("AXI4-Lite slave (32-bit registers).");
  axi::addPorts(m, "s_axil_", axi::liteSignals(), false,
                {{"ADDR", "LiteAddrBits"}, {"DATA", "RegBits"}, {"STRB", "RegBits/8"}});
  m.portGroup("Commands to the decoder, responses and errors from it.");
  m.output("cmd_valid_o", Type::bit());
  m.input("cmd_ready_i", Type::bit());
  m.output("cmd_funct_o", Type::bits("FunctBits"));
  m.output("cmd_rs1_o", Type::bits("XBits"));
  m.output("cmd_rs2_o", Type::bits("XBits"));
  m.output("cmd_xd_o", Type::bit());
  m.output("cmd_mmio_o", Type::bit());
  m.input("resp_valid_i", Type::bit());
  m.output("resp_ready_o", Type::bit());
  m.input("resp_mmio_i", Type::bit());
  m.input("resp_data_i", Type::bits("XBits"));
  m.input("err_valid_i", Type::bit(), "decoder rejected a command");
  m.input("err_code_i", Type::bits("ErrBits"));
  m.input("err_funct_i", Type::bits("FunctBits"));
  m.input("ld_err_i", Type::bit(), "an MVIN saw an AXI error or a malformed block");
  m.input("ld_err_ch_i", Type::bits("ChannelBits"), "its load channel (load_channel_e)");
  m.input("st_err_i", Type::bit(), "an MVOUT saw an AXI error");
  m.portGroup("COUNTER_OP counter file access (from the decoder).");
  m.input("ctr_valid_i", Type::bit());
  m.input("ctr_rs1_i", Type::bits("RegBits"));
  m.output("ctr_value_o", Type::bits("RegBits"));
  m.portGroup("Events: Gemmini counter events by id, external values, performance events.");
  m.input("events_i", Type::bits("EventIds"), "event id n is active this cycle");
  m.input("ext_rob_ld_i", Type::bits("RobBits"), "load operations in the reservation station");
  m.input("ext_rob_st_i", Type::bits("RobBits"));
  m.input("ext_rob_ex_i", Type::bits("RobBits"));
  m.input("ext_rd_bytes_i", Type::bits("ByteBits"), "bytes read by the DMA this cycle");
  m.input("ext_wr_bytes_i", Type::bits("ByteBits"), "bytes written by the DMA this cycle");
  for (const PerfEvent& e : perfEvents(p_))
    if (!e.port.empty())
      m.input(e.port, Type::bits(e.width));
  m.portGroup("Status.");
  m.input("busy_i", Type::bit(), "any command in flight");
  m.output("queue_busy_o", Type::bit(), "commands wait in the queue");
  m.output("irq_o", Type::bit());
}

void CmdFrontendGenerator::localParams(vlog::Body& b) const {
  const bool onChip = p_.config.boveda.enabled && p_.config.boveda.onChip;
  b.localParam("RegAddrBits", "12", "register offsets (the low 4 KiB of the AXI4-Lite space)");
  b.localParam("RespOkay", Type::bits("2"), "2'b00", "AXI response OKAY");
  for (const isa::Register& r : isa::registers())
    b.localParam(regConst(r.name), Type::bits("RegAddrBits"), hexOffset(r.offset));
  b.localParam("RegPerfBase", Type::bits("RegAddrBits"), hexOffset(isa::kPerfRegisterBase),
               "the first 64-bit counter's LO word");
  {
    char id[16];
    std::snprintf(id, sizeof id, "32'h%08x", isa::kIdValue);
    b.localParam("IdValue", Type::bits("RegBits"), id, "the ID register (\"BYD1\")");
  }
  b.localParam("Version", Type::bits("RegBits"), "32'd" + num(isa::kVersion),
               "the interface version");
  for (const std::string fn : {"Mvin", "Mvin2", "Mvin3", "Mvout", "Decompress"}) {
    if (fn == "Decompress" && !onChip)
      continue;
    const int code = fn == "Mvin"    ? isa::kMvin
                     : fn == "Mvin2" ? isa::kMvin2
                     : fn == "Mvin3" ? isa::kMvin3
                     : fn == "Mvout" ? isa::kMvout
                                     : isa::kDecompress;
    b.localParam("Funct" + fn, Type::bits("FunctBits"), "7'd" + num(code));
  }
  b.localParam("ErrDmaError", Type::bits("ErrBits"), "8'd" + num(isa::errorCode("DMA_ERROR")));
  b.localParam("IrqIdle", num(registerField("IRQ_STATUS", "IDLE").lsb), "IRQ_* bit: went idle");
  b.localParam("IrqError", num(registerField("IRQ_STATUS", "ERROR").lsb), "IRQ_* bit: an error");
  b.localParam("IrqBits", "2");
  b.localParam("CmdWidth", "1+1+FunctBits+2*XBits", "a queued command {mmio, xd, funct, rs1, rs2}");
  b.localParam("CmdDepth", "8", "the command queue");
  b.localParam("NumPerf", num(static_cast<long long>(perfEvents(p_).size())),
               "64-bit performance counters");
  b.localParam("PerfBits", "64");
  b.localParam("PerfIncBits", "16", "a counter's increment per cycle");
  b.localParam("NumCounters", num(isa::kNumCounters), "COUNTER_OP counters");
  b.localParam("CounterIdxBits", "$clog2(NumCounters)");
  b.localParam("EventBits", "6", "a counter event id");
  declareEnum(b, loadChannelEncoding());
  for (const isa::CounterEvent& e : isa::counterEvents())
    if (e.external)
      b.localParam("Ext" + upperCamel(e.name), Type::bits("EventBits"), "6'd" + num(e.id),
                   "external: " + e.doc);
  b.blank();
}

// The command queue both ports push into: entry {mmio, xd, funct, rs1, rs2}; the RoCC port has
// priority. The MMIO command registers (CMD_FUNCT, CMD_RS*) hold what CMD_PUSH pushes.
void CmdFrontendGenerator::commandQueue(vlog::Body& b, StateRegs& regs) const {
  b.comment("Command queue entry: {mmio, xd, funct, rs1, rs2}. The RoCC port has priority.");
  regs.add("cmd_funct", Type::bits("FunctBits"), "'0", "CMD_FUNCT")
      .add("cmd_rs1_lo", Type::bits("RegBits"), "'0", "CMD_RS1_LO")
      .add("cmd_rs1_hi", Type::bits("RegBits"), "'0", "CMD_RS1_HI")
      .add("cmd_rs2_lo", Type::bits("RegBits"), "'0", "CMD_RS2_LO")
      .add("cmd_rs2_hi", Type::bits("RegBits"), "'0", "CMD_RS2_HI");
  b.logic("mmio_push", Type::bit(), "a CMD_PUSH write is being performed");
  b.logic("q_in_valid", Type::bit());
  b.logic("q_in_ready", Type::bit());
  b.logic("q_in", Type::bits("CmdWidth"));
  b.logic("q_out", Type::bits("CmdWidth"));
  b.logic("q_valid", Type::bit());
  b.assign("q_in_valid", "rocc_cmd_valid_i || mmio_push");
  b.assign("rocc_cmd_ready_o", "q_in_ready");
  b.assign("q_in", "rocc_cmd_valid_i ? {1'b0, rocc_cmd_xd_i, rocc_cmd_funct_i, rocc_cmd_rs1_i, "
                   "rocc_cmd_rs2_i} :\n      {1'b1, 1'b0, cmd_funct_q, cmd_rs1_hi_q, cmd_rs1_lo_q, "
                   "cmd_rs2_hi_q, cmd_rs2_lo_q}");
  auto& q = b.instance(names::kFifo, "u_cmd_queue");
  q.params = {{"Width", "CmdWidth"}, {"Depth", "CmdDepth"}};
  q.conns = {{"clk_i", "clk_i"},
             {"rst_ni", "rst_ni"},
             {"in_valid_i", "q_in_valid"},
             {"in_ready_o", "q_in_ready"},
             {"in_data_i", "q_in"},
             {"out_valid_o", "q_valid"},
             {"out_ready_i", "cmd_ready_i"},
             {"out_data_o", "q_out"}};
  b.assign("cmd_valid_o", "q_valid");
  b.assign("{cmd_mmio_o, cmd_xd_o, cmd_funct_o, cmd_rs1_o, cmd_rs2_o}", "q_out");
  b.assign("queue_busy_o", "q_valid");
  b.blank();
  b.comment("Responses: RoCC ones to the port, MMIO ones into RESP_LO/HI.");
  regs.add("resp", Type::bits("XBits"), "'0")
      .add("resp_valid", Type::bit(), "1'b0", "STATUS.response valid");
  b.assign("rocc_resp_valid_o", "resp_valid_i && !resp_mmio_i");
  b.assign("rocc_resp_data_o", "resp_data_i");
  b.assign("resp_ready_o", "resp_mmio_i || rocc_resp_ready_i");
  b.blank();
}

// AXI4-Lite: a write needs AW and W together; CMD_PUSH waits for queue space (a RoCC command
// in the same cycle goes first). Reads take one cycle. Drives wr_go, rd_go, wr_addr, rd_addr,
// the write-data fields and the s_axil_* outputs; registers bvalid, rvalid, rdata.
void CmdFrontendGenerator::axiLite(vlog::Body& b, StateRegs& regs) const {
  b.comment("AXI4-Lite: a write needs AW and W together; CMD_PUSH waits for queue space (a "
            "RoCC command in the same cycle goes first). Reads take one cycle.");
  regs.add("bvalid", Type::bit(), "1'b0")
      .add("rvalid", Type::bit(), "1'b0")
      .add("rdata", Type::bits("RegBits"), "'0");
  b.logic("wr_addr", Type::bits("RegAddrBits"));
  b.logic("rd_addr", Type::bits("RegAddrBits"));
  b.logic("wr_go", Type::bit(), "perform the write this cycle");
  b.logic("rd_go", Type::bit());
  b.logic("rd_data", Type::bits("RegBits"));
  b.logic("axil_aw_word", Type::bits("RegAddrBits-2"), "word of the write address");
  b.logic("axil_ar_word", Type::bits("RegAddrBits-2"));
  b.assign("axil_aw_word", "s_axil_awaddr_i[RegAddrBits-1:2]");
  b.assign("axil_ar_word", "s_axil_araddr_i[RegAddrBits-1:2]");
  b.assign("wr_addr", "{axil_aw_word, 2'b00}");
  b.assign("rd_addr", "{axil_ar_word, 2'b00}");
  b.assign("wr_go", "s_axil_awvalid_i && s_axil_wvalid_i && !bvalid_q &&\n"
                    "      (wr_addr != RegCmdPush || (q_in_ready && !rocc_cmd_valid_i))");
  b.assign("mmio_push", "wr_go && wr_addr == RegCmdPush");
  b.assign("s_axil_awready_o", "wr_go");
  b.assign("s_axil_wready_o", "wr_go");
  b.assign("s_axil_bvalid_o", "bvalid_q");
  b.assign("s_axil_bresp_o", "RespOkay");
  b.assign("rd_go", "s_axil_arvalid_i && !rvalid_q");
  b.assign("s_axil_arready_o", "rd_go");
  b.assign("s_axil_rvalid_o", "rvalid_q");
  b.assign("s_axil_rdata_o", "rdata_q");
  b.assign("s_axil_rresp_o", "RespOkay");
  b.comment("The write data's fields the registers take.");
  b.logic("wdata_funct", Type::bits("FunctBits"));
  b.logic("wdata_irq", Type::bits("IrqBits"));
  b.logic("wdata_err_code", Type::bits("ErrBits"));
  b.logic("wdata_set", Type::bit(), "bit 0 (COUNTERS_RESET)");
  b.assign("wdata_funct", "s_axil_wdata_i[FunctBits-1:0]");
  b.assign("wdata_irq", "s_axil_wdata_i[IrqBits-1:0]");
  b.assign("wdata_err_code", "s_axil_wdata_i[ErrBits-1:0]");
  b.assign("wdata_set", "s_axil_wdata_i[0]");
  b.logic("unused_axil", Type::bit());
  b.assign("unused_axil",
           "^{s_axil_awaddr_i[LiteAddrBits-1:RegAddrBits], s_axil_awaddr_i[1:0],\n"
           "      s_axil_araddr_i[LiteAddrBits-1:RegAddrBits], s_axil_araddr_i[1:0], "
           "s_axil_wstrb_i}");
  b.blank();
}

// Errors: the first since cleared is latched ({funct, code}); every one is counted. Interrupts
// on going idle and on errors.
void CmdFrontendGenerator::errors(vlog::Body& b, StateRegs& regs) const {
  const bool onChip = p_.config.boveda.enabled && p_.config.boveda.onChip;
  b.comment("Errors: the first since cleared is latched; every one is counted.");
  regs.add("error_code", Type::bits("ErrBits"), "'0", "ERROR.CODE of the first error")
      .add("error_funct", Type::bits("FunctBits"), "'0", "ERROR.FUNCT")
      .add("error_count", Type::bits("RegBits"), "'0")
      .add("irq_enable", Type::bits("IrqBits"), "'0")
      .add("irq_status", Type::bits("IrqBits"), "'0")
      .add("busy", Type::bit(), "1'b0", "last cycle's busy (idle edge detection)");
  b.logic("any_err", Type::bit());
  b.logic("error_pending", Type::bit(), "an error is latched");
  b.logic("new_code", Type::bits("ErrBits"), "the error this cycle (if several, the first here)");
  b.logic("new_funct", Type::bits("FunctBits"));
  b.logic("ld_err_funct", Type::bits("FunctBits"), "the funct of the failed load operation");
  b.logic("err_incr", Type::bits("2"), "errors this cycle (0..3)");
  b.logic("irq_events", Type::bits("IrqBits"), "{error, went idle} this cycle");
  b.assign("any_err", "err_valid_i || ld_err_i || st_err_i");
  b.assign("error_pending", "error_code_q != '0");
  b.assign("ld_err_funct",
           std::string("ld_err_ch_i == ChMvin2 ? FunctMvin2 : ld_err_ch_i == "
                       "ChMvin3 ? FunctMvin3 :\n") +
               (onChip ? "      ld_err_ch_i == ChDecompress ? FunctDecompress : " : "      ") +
               "FunctMvin");
  b.assign("new_code", "err_valid_i ? err_code_i : ErrDmaError");
  b.assign("new_funct", "err_valid_i ? err_funct_i : ld_err_i ? ld_err_funct : FunctMvout");
  b.assign("err_incr", "2'(err_valid_i) + 2'(ld_err_i) + 2'(st_err_i)");
  b.assign("irq_events",
           "(IrqBits'(any_err) << IrqError) | (IrqBits'(busy_q && !busy_i) << IrqIdle)");
  b.assign("irq_o", "|(irq_status_q & irq_enable_q)");
  b.blank();
}

// The 64-bit performance counters (registers from RegPerfBase, LO then HI; reading LO latches
// HI into perf_hi_q).
void CmdFrontendGenerator::perfCounters(vlog::Body& b, StateRegs& regs) const {
  const std::vector<PerfEvent> events = perfEvents(p_);
  const int nPerf = static_cast<int>(events.size());
  b.comment("64-bit performance counters (registers from RegPerfBase, LO then HI).");
  regs.add("perf_hi", Type::bits("RegBits"), "'0", "HI word latched by the last LO read");
  b.logicArray("perf_count", Type::bits("PerfBits"), "NumPerf", "the counters' values", "mem2reg");
  b.logicArray("perf_inc", Type::bits("PerfIncBits"), "NumPerf", "increment this cycle", "mem2reg");
  for (int i = 0; i < nPerf; ++i)
    b.assign("perf_inc[" + num(i) + "]",
             events[i].port.empty() ? "PerfIncBits'(1)" : "PerfIncBits'(" + events[i].port + ")");
  b.logic("perf_off", Type::bits("RegAddrBits"), "byte offset into the counter registers");
  b.logic("perf_idx", Type::bits("$clog2(NumPerf)"), "the counter whose LO is read");
  b.logic("perf_hi_next", Type::bits("RegBits"), "HI word of the counter whose LO is read");
  b.assign("perf_off", "rd_addr - RegPerfBase");
  b.assign("perf_idx", "perf_off[$clog2(NumPerf)+2:3]");
  b.assign("perf_hi_next", "perf_count[perf_idx][PerfBits-1:RegBits]");
  b.logic("perf_reset", Type::bit());
  b.assign("perf_reset", "wr_go && wr_addr == RegCountersReset && wdata_set");
  // Each counter in a block of its own, not in the next-state block: that block reads the AXI-Lite
  // inputs, so a Verilated model would compute all its adds in the input region, twice a cycle.
  vlog::Body& counter = b.genFor("i", "NumPerf", "gen_perf");
  counter.logic("count_q", Type::bits("PerfBits"));
  counter.flops({{{"count_q", "perf_reset ? '0 : count_q + PerfBits'(perf_inc[i])", "'0"}}});
  counter.assign("perf_count[i]", "count_q");
  b.blank();
}

// The COUNTER_OP counters: NumCounters x {external, event id}, 32-bit values and a snapshot.
void CmdFrontendGenerator::counterFile(vlog::Body& b, StateRegs& regs, IsaFieldWires& f) const {
  b.comment("COUNTER_OP counters: 8 x {external, event id}, 32-bit values and a snapshot.");
  regs.add("ctr_cfg", Type::bits("EventBits+1"), "'0", "{external, event id}", "NumCounters")
      .add("ctr_val", Type::bits("RegBits"), "'0", "", "NumCounters")
      .add("ctr_snap", Type::bits("RegBits"), "'0", "", "NumCounters")
      .add("snap_en", Type::bit(), "1'b0", "reads return the snapshot");
  b.logic("ctr_index", Type::bits("CounterIdxBits"));
  b.logic("ctr_reset", Type::bit());
  b.logic("ctr_snap_reset", Type::bit());
  b.logic("ctr_snap", Type::bit());
  b.logic("ctr_config", Type::bit());
  b.logic("ctr_new_cfg", Type::bits("EventBits+1"), "{external, event id} being configured");
  b.assign("ctr_index", f("op", "COUNTER_OP", "rs1", "index"));
  b.assign("ctr_reset", "ctr_valid_i && " + f("op", "COUNTER_OP", "rs1", "reset"));
  b.assign("ctr_snap_reset", "ctr_valid_i && " + f("op", "COUNTER_OP", "rs1", "snapshot_reset"));
  b.assign("ctr_snap", "ctr_valid_i && " + f("op", "COUNTER_OP", "rs1", "snapshot"));
  b.assign("ctr_config", "ctr_valid_i && " + f("op", "COUNTER_OP", "rs1", "configure"));
  b.assign("ctr_new_cfg", "{" + f("op", "COUNTER_OP", "rs1", "external") + ", " +
                              f("op", "COUNTER_OP", "rs1", "event") + "}");
  b.logic("unused_ctr", Type::bit());
  b.assign("unused_ctr", "^{ctr_rs1_i[30:18], ctr_rs1_i[11:7], perf_off}");
  b.assign("ctr_value_o", "snap_en_q ? ctr_snap_q[ctr_index] : ctr_val_q[ctr_index]");
  b.logicArray("ctr_next", Type::bits("RegBits"), "NumCounters", "value after this cycle's events",
               "mem2reg");
  vlog::Body& g = b.genFor("i", "NumCounters", "gen_counter");
  g.logic("external", Type::bit(), "counts an external value");
  g.logic("event_id", Type::bits("EventBits"));
  g.logic("ext_level", Type::bits("RegBits"), "external level (reservation-station counts)");
  g.logic("ext_incr", Type::bits("RegBits"), "external increment (DMA bytes)");
  g.assign("{external, event_id}", "ctr_cfg_q[i]");
  g.assign("ext_level", "event_id == ExtRobLdCount ? RegBits'(ext_rob_ld_i) :\n"
                        "      event_id == ExtRobStCount ? RegBits'(ext_rob_st_i) :\n"
                        "      event_id == ExtRobExCount ? RegBits'(ext_rob_ex_i) : '0");
  g.assign("ext_incr", "event_id == ExtRdmaBytesRec ? RegBits'(ext_rd_bytes_i) :\n"
                       "      event_id == ExtWdmaBytesSent ? RegBits'(ext_wr_bytes_i) : '0");
  g.assign("ctr_next[i]",
           "!external ? ctr_val_q[i] + RegBits'(event_id != '0 && events_i[event_id]) :\n"
           "      (event_id <= ExtRobExCount && event_id != '0) ? ext_level : "
           "ctr_val_q[i] + ext_incr");
  b.blank();
}

// The register read multiplexer, from the ISA table's register map. Each readable register is
// a named signal (r_*): Icarus takes no constant selects inside always_comb, so the case only
// picks whole signals.
void CmdFrontendGenerator::readMux(vlog::Body& b) const {
  b.comment("Register read multiplexer, from the ISA table's register map.");
  std::vector<std::pair<std::string, vlog::Stmts::Fill>> arms;
  for (const auto& [name, value] : readValues(p_)) {
    std::string sig = "r_";
    for (char ch : name)
      sig += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    b.logic(sig, Type::bits("RegBits"));
    b.assign(sig, value);
    arms.push_back({regConst(name), [sig](vlog::Stmts& s) { s.line("rd_data = " + sig + ";"); }});
  }
  b.comb().uniqueCaseOf("rd_addr", arms, [](vlog::Stmts& s) { s.line("rd_data = '0;"); });
  b.blank();
}

void CmdFrontendGenerator::nextState(vlog::Stmts& n) const {
  n.comment("AXI4-Lite handshakes.");
  n.ifElse(
      "wr_go", [](vlog::Stmts& s) { s.line("bvalid_d = 1'b1;"); },
      [](vlog::Stmts& s) {
        s.ifElse("s_axil_bready_i", [](vlog::Stmts& t) { t.line("bvalid_d = 1'b0;"); });
      });
  n.ifElse(
      "rd_go", [](vlog::Stmts& s) { s.line("rvalid_d = 1'b1;").line("rdata_d = rd_data;"); },
      [](vlog::Stmts& s) {
        s.ifElse("s_axil_rready_i", [](vlog::Stmts& t) { t.line("rvalid_d = 1'b0;"); });
      });
  n.comment("Register writes.");
  n.ifElse("wr_go", [&](vlog::Stmts& s) {
    s.uniqueCaseOf(
        "wr_addr",
        {{"RegCmdFunct", [](vlog::Stmts& t) { t.line("cmd_funct_d = wdata_funct;"); }},
         {"RegCmdRs1Lo", [](vlog::Stmts& t) { t.line("cmd_rs1_lo_d = s_axil_wdata_i;"); }},
         {"RegCmdRs1Hi", [](vlog::Stmts& t) { t.line("cmd_rs1_hi_d = s_axil_wdata_i;"); }},
         {"RegCmdRs2Lo", [](vlog::Stmts& t) { t.line("cmd_rs2_lo_d = s_axil_wdata_i;"); }},
         {"RegCmdRs2Hi", [](vlog::Stmts& t) { t.line("cmd_rs2_hi_d = s_axil_wdata_i;"); }},
         {"RegIrqEnable", [](vlog::Stmts& t) { t.line("irq_enable_d = wdata_irq;"); }}},
        [](vlog::Stmts& t) { t.line("// other registers: read-only or handled below"); });
  });
  n.comment("Reads with side effects: LO latches HI; RESP_HI consumes the response.");
  n.ifElse("rd_go && rd_addr >= RegPerfBase",
           [](vlog::Stmts& s) { s.line("perf_hi_d = perf_hi_next;"); });
  n.ifElse("rd_go && rd_addr == RegRespHi", [](vlog::Stmts& s) { s.line("resp_valid_d = 1'b0;"); });
  n.ifElse("resp_valid_i && resp_mmio_i",
           [](vlog::Stmts& s) { s.line("resp_d = resp_data_i;").line("resp_valid_d = 1'b1;"); });
  n.comment("Errors and interrupts.");
  n.line("error_count_d = error_count_q + RegBits'(err_incr);");
  n.ifElse(
      "wr_go && wr_addr == RegError && wdata_err_code != '0",
      [](vlog::Stmts& s) { s.line("error_code_d = '0;").line("error_funct_d = '0;"); },
      [](vlog::Stmts& s) {
        s.ifElse("any_err && !error_pending", [](vlog::Stmts& t) {
          t.line("error_code_d = new_code;").line("error_funct_d = new_funct;");
        });
      });
  n.line("busy_d = busy_i;");
  n.ifElse(
      "wr_go && wr_addr == RegIrqStatus",
      [](vlog::Stmts& s) { s.line("irq_status_d = (irq_status_q & ~wdata_irq) | irq_events;"); },
      [](vlog::Stmts& s) { s.line("irq_status_d = irq_status_q | irq_events;"); });
  nextCounters(n);
}

void CmdFrontendGenerator::nextCounters(vlog::Stmts& n) const {
  n.comment("COUNTER_OP: configure / reset / snapshot (the value read is the old one).");
  n.forLoop("i", "NumCounters", [](vlog::Stmts& s) {
    s.ifElse(
        "ctr_reset",
        [](vlog::Stmts& t) { t.line("ctr_val_d[i] = '0;").line("ctr_snap_d[i] = '0;"); },
        [](vlog::Stmts& t) {
          t.ifElse(
              "ctr_config && ctr_index == CounterIdxBits'(i)",
              [](vlog::Stmts& u) {
                u.line("ctr_cfg_d[i] = ctr_new_cfg;").line("ctr_val_d[i] = '0;");
              },
              [](vlog::Stmts& u) { u.line("ctr_val_d[i] = ctr_next[i];"); });
          t.ifElse("ctr_snap && !ctr_snap_reset",
                   [](vlog::Stmts& u) { u.line("ctr_snap_d[i] = ctr_val_q[i];"); });
        });
  });
  n.ifElse(
      "ctr_reset || ctr_snap_reset", [](vlog::Stmts& s) { s.line("snap_en_d = 1'b0;"); },
      [](vlog::Stmts& s) {
        s.ifElse("ctr_snap", [](vlog::Stmts& t) { t.line("snap_en_d = 1'b1;"); });
      });
}

} // namespace by::hw
