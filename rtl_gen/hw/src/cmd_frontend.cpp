// The command frontend: the AXI4-Lite control registers (the ISA table's register map), the
// RoCC command and response ports, the command queue both feed, error and interrupt
// registers, the 64-bit performance counters and the COUNTER_OP event counters.
#include "cmd_frontend.h"

#include "hw/isa.h"
#include "text_util.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

namespace by::hw {

using vlog::Type;

namespace {

std::string hexDigits(uint32_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}

std::string hex12(uint32_t v) {
  std::ostringstream os;
  os << "12'h" << std::hex << v;
  return os.str();
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
      out += num(top - f->lsb - f->width) + "'d0, ";
    out += num(f->width) + "'(" + fields.at(f->name) + "), ";
    top = f->lsb;
  }
  if (top > 0)
    out += num(top) + "'d0, ";
  return out.substr(0, out.size() - 2) + "}";
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
  };
}

vlog::Module CmdFrontendGenerator::build() const {
  const AccelParams& p = p_;
  const std::vector<PerfEvent> events = perfEvents(p);
  const int nPerf = static_cast<int>(events.size());
  const int byteBits = config::log2Exact(p.maxBytes) + 2;
  vlog::Module m(names::kFrontend,
                 "Command frontend: AXI4-Lite control registers (docs/isa.md), RoCC command and "
                 "response ports, the command queue, error and interrupt registers, 64-bit "
                 "performance counters and the 8 COUNTER_OP counters.");
  m.clockAndReset();
  m.portGroup("RoCC command port and response.");
  m.input("rocc_cmd_valid_i", Type::bit());
  m.output("rocc_cmd_ready_o", Type::bit());
  m.input("rocc_cmd_funct_i", Type::bits(7));
  m.input("rocc_cmd_rs1_i", Type::bits(64));
  m.input("rocc_cmd_rs2_i", Type::bits(64));
  m.input("rocc_cmd_xd_i", Type::bit(), "the instruction writes rd: a response follows");
  m.output("rocc_resp_valid_o", Type::bit());
  m.input("rocc_resp_ready_i", Type::bit());
  m.output("rocc_resp_data_o", Type::bits(64));
  m.portGroup("AXI4-Lite slave (32-bit registers).");
  m.input("s_axil_awvalid_i", Type::bit());
  m.output("s_axil_awready_o", Type::bit());
  m.input("s_axil_awaddr_i", Type::bits(16));
  m.input("s_axil_wvalid_i", Type::bit());
  m.output("s_axil_wready_o", Type::bit());
  m.input("s_axil_wdata_i", Type::bits(32));
  m.input("s_axil_wstrb_i", Type::bits(4));
  m.output("s_axil_bvalid_o", Type::bit());
  m.input("s_axil_bready_i", Type::bit());
  m.output("s_axil_bresp_o", Type::bits(2));
  m.input("s_axil_arvalid_i", Type::bit());
  m.output("s_axil_arready_o", Type::bit());
  m.input("s_axil_araddr_i", Type::bits(16));
  m.output("s_axil_rvalid_o", Type::bit());
  m.input("s_axil_rready_i", Type::bit());
  m.output("s_axil_rdata_o", Type::bits(32));
  m.output("s_axil_rresp_o", Type::bits(2));
  m.portGroup("Commands to the decoder, responses and errors from it.");
  m.output("cmd_valid_o", Type::bit());
  m.input("cmd_ready_i", Type::bit());
  m.output("cmd_funct_o", Type::bits(7));
  m.output("cmd_rs1_o", Type::bits(64));
  m.output("cmd_rs2_o", Type::bits(64));
  m.output("cmd_xd_o", Type::bit());
  m.output("cmd_mmio_o", Type::bit());
  m.input("resp_valid_i", Type::bit());
  m.output("resp_ready_o", Type::bit());
  m.input("resp_mmio_i", Type::bit());
  m.input("resp_data_i", Type::bits(64));
  m.input("err_valid_i", Type::bit(), "decoder rejected a command");
  m.input("err_code_i", Type::bits(8));
  m.input("err_funct_i", Type::bits(7));
  m.input("ld_err_i", Type::bit(), "an MVIN saw an AXI error or a malformed block");
  m.input("ld_err_ch_i", Type::bits(2), "its load channel: 0 MVIN, 1 MVIN2, 2 MVIN3, 3 DECOMPRESS");
  const bool onChip = p.config.boveda.enabled && p.config.boveda.onChip;
  m.input("st_err_i", Type::bit(), "an MVOUT saw an AXI error");
  m.portGroup("COUNTER_OP counter file access (from the decoder).");
  m.input("ctr_valid_i", Type::bit());
  m.input("ctr_rs1_i", Type::bits(32));
  m.output("ctr_value_o", Type::bits(32));
  m.portGroup("Events: Gemmini counter events by id, external values, performance events.");
  m.input("events_i", Type::bits(64), "event id n is active this cycle");
  m.input("ext_rob_ld_i", Type::bits(8), "load operations in the reservation station");
  m.input("ext_rob_st_i", Type::bits(8));
  m.input("ext_rob_ex_i", Type::bits(8));
  m.input("ext_rd_bytes_i", Type::bits(byteBits), "bytes read by the DMA this cycle");
  m.input("ext_wr_bytes_i", Type::bits(byteBits), "bytes written by the DMA this cycle");
  for (const PerfEvent& e : events)
    if (!e.port.empty())
      m.input(e.port, Type::bits(e.width));
  m.portGroup("Status.");
  m.input("busy_i", Type::bit(), "any command in flight");
  m.output("queue_busy_o", Type::bit(), "commands wait in the queue");
  m.output("irq_o", Type::bit());

  vlog::Body& b = m.body();
  // ================================================================ command queue
  b.comment("Command queue entry: {mmio, xd, funct, rs1, rs2}. The RoCC port has priority.");
  b.logic("mmio_push", Type::bit(), "a CMD_PUSH write is being performed");
  b.logic("q_in_valid", Type::bit());
  b.logic("q_in_ready", Type::bit());
  b.logic("q_in", Type::bits(137));
  b.logic("q_out", Type::bits(137));
  b.logic("q_valid", Type::bit());
  b.logic("cmd_funct_q", Type::bits(7));
  b.logic("cmd_rs1_q", Type::bits(64));
  b.logic("cmd_rs2_q", Type::bits(64));
  b.assign("q_in_valid", "rocc_cmd_valid_i || mmio_push");
  b.assign("rocc_cmd_ready_o", "q_in_ready");
  b.assign("q_in", "rocc_cmd_valid_i ? {1'b0, rocc_cmd_xd_i, rocc_cmd_funct_i, rocc_cmd_rs1_i, "
                   "rocc_cmd_rs2_i} :\n      {1'b1, 1'b0, cmd_funct_q, cmd_rs1_q, cmd_rs2_q}");
  {
    auto& f = b.instance(names::kFifo, "u_cmd_queue");
    f.params = {{"Width", "137"}, {"Depth", "8"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "q_in_valid"},
               {"in_ready_o", "q_in_ready"},
               {"in_data_i", "q_in"},
               {"out_valid_o", "q_valid"},
               {"out_ready_i", "cmd_ready_i"},
               {"out_data_o", "q_out"}};
  }
  b.assign("cmd_valid_o", "q_valid");
  b.assign("cmd_mmio_o", "q_out[136]");
  b.assign("cmd_xd_o", "q_out[135]");
  b.assign("cmd_funct_o", "q_out[134:128]");
  b.assign("cmd_rs1_o", "q_out[127:64]");
  b.assign("cmd_rs2_o", "q_out[63:0]");
  b.assign("queue_busy_o", "q_valid");
  b.blank();

  // ================================================================ responses
  b.comment("Responses: RoCC ones to the port, MMIO ones into RESP_LO/HI.");
  b.logic("resp_q", Type::bits(64));
  b.logic("resp_valid_q", Type::bit(), "STATUS.response valid");
  b.assign("rocc_resp_valid_o", "resp_valid_i && !resp_mmio_i");
  b.assign("rocc_resp_data_o", "resp_data_i");
  b.assign("resp_ready_o", "resp_mmio_i || rocc_resp_ready_i");
  b.blank();

  // ================================================================ AXI4-Lite
  b.comment("AXI4-Lite: a write needs AW and W together; CMD_PUSH waits for queue space (a "
            "RoCC command in the same cycle goes first). Reads take one cycle.");
  b.logic("wr_addr", Type::bits(12));
  b.logic("bvalid_q", Type::bit());
  b.logic("rvalid_q", Type::bit());
  b.logic("rdata_q", Type::bits(32));
  b.logic("wr_go", Type::bit(), "perform the write this cycle");
  b.logic("rd_go", Type::bit());
  b.logic("rd_addr", Type::bits(12));
  b.logic("rd_data", Type::bits(32));
  const uint32_t pushOff = isa::registerOffset("CMD_PUSH");
  b.assign("wr_addr", "{s_axil_awaddr_i[11:2], 2'b00}");
  b.assign("rd_addr", "{s_axil_araddr_i[11:2], 2'b00}");
  b.assign("wr_go", "s_axil_awvalid_i && s_axil_wvalid_i && !bvalid_q &&\n"
                    "      (wr_addr != " +
                        hex12(pushOff) + " || (q_in_ready && !rocc_cmd_valid_i))");
  b.assign("mmio_push", "wr_go && wr_addr == " + hex12(pushOff));
  b.assign("s_axil_awready_o", "wr_go");
  b.assign("s_axil_wready_o", "wr_go");
  b.assign("s_axil_bvalid_o", "bvalid_q");
  b.assign("s_axil_bresp_o", "2'b00");
  b.assign("rd_go", "s_axil_arvalid_i && !rvalid_q");
  b.assign("s_axil_arready_o", "rd_go");
  b.assign("s_axil_rvalid_o", "rvalid_q");
  b.assign("s_axil_rdata_o", "rdata_q");
  b.assign("s_axil_rresp_o", "2'b00");
  b.logic("unused_axil", Type::bit());
  b.assign("unused_axil", "^{s_axil_awaddr_i[15:12], s_axil_awaddr_i[1:0], "
                          "s_axil_araddr_i[15:12], s_axil_araddr_i[1:0], s_axil_wstrb_i}");
  b.blank();

  // ================================================================ error / irq
  b.comment("Errors: the first since cleared is latched; every one is counted.");
  b.logic("error_q", Type::bits(15), "{funct, code}");
  b.logic("error_count_q", Type::bits(32));
  b.logic("irq_enable_q", Type::bits(2));
  b.logic("irq_status_q", Type::bits(2));
  b.logic("busy_q", Type::bit(), "last cycle's busy (idle edge detection)");
  b.logic("any_err", Type::bit());
  b.logic("new_error", Type::bits(15));
  b.logic("ld_err_funct", Type::bits(7), "the funct of the failed load operation");
  b.logic("err_incr", Type::bits(2));
  b.assign("any_err", "err_valid_i || ld_err_i || st_err_i");
  b.assign(
      "ld_err_funct",
      "ld_err_ch_i == 2'd1 ? 7'd" + num(isa::kMvin2) + " : ld_err_ch_i == 2'd2 ? 7'd" +
          num(isa::kMvin3) + " :\n" +
          (onChip ? "      ld_err_ch_i == 2'd3 ? 7'd" + num(isa::kDecompress) + " : " : "      ") +
          "7'd" + num(isa::kMvin));
  b.assign("new_error", "err_valid_i ? {err_funct_i, err_code_i} :\n"
                        "      ld_err_i ? {ld_err_funct, 8'd" +
                            num(isa::errorCode("DMA_ERROR")) + "} : {7'd" + num(isa::kMvout) +
                            ", 8'd" + num(isa::errorCode("DMA_ERROR")) + "}");
  b.assign("err_incr", "2'(err_valid_i) + 2'(ld_err_i) + 2'(st_err_i)");
  b.assign("irq_o", "|(irq_status_q & irq_enable_q)");
  b.blank();

  // ================================================================ perf counters
  b.comment("64-bit performance counters (registers from 0x100, LO then HI).");
  b.localParam("NumPerf", num(nPerf));
  b.logicArray("perf_q", Type::bits(64), "NumPerf", "", "mem2reg");
  b.logic("perf_hi_q", Type::bits(32), "HI word latched by the last LO read");
  b.logicArray("perf_inc", Type::bits(16), "NumPerf", "increment this cycle", "mem2reg");
  for (int i = 0; i < nPerf; ++i)
    b.assign("perf_inc[" + num(i) + "]",
             events[i].port.empty() ? "16'd1" : "16'(" + events[i].port + ")");
  b.logic("perf_off", Type::bits(12), "byte offset into the counter registers");
  b.logic("perf_hi_next", Type::bits(32), "HI word of the counter whose LO is read");
  b.assign("perf_off", "rd_addr - 12'h100");
  const int perfIdx = config::log2Exact(nPerf); // bits of a counter index
  b.assign("perf_hi_next", "perf_q[perf_off[" + num(perfIdx + 2) + ":3]][63:32]");
  b.logic("perf_reset", Type::bit());
  b.assign("perf_reset", "wr_go && wr_addr == " + hex12(isa::registerOffset("COUNTERS_RESET")) +
                             " && s_axil_wdata_i[0]");
  b.blank();

  // ================================================================ COUNTER_OP file
  b.comment("COUNTER_OP counters: 8 x {external, event id}, 32-bit values and a snapshot.");
  b.logicArray("ctr_cfg_q", Type::bits(7), "8", "{external, event id}", "mem2reg");
  b.logicArray("ctr_val_q", Type::bits(32), "8", "", "mem2reg");
  b.logicArray("ctr_snap_q", Type::bits(32), "8", "", "mem2reg");
  b.logic("snap_en_q", Type::bit());
  b.logic("ctr_index", Type::bits(3));
  b.logic("ctr_reset", Type::bit());
  b.logic("ctr_snap_reset", Type::bit());
  b.logic("ctr_snap", Type::bit());
  b.logic("ctr_config", Type::bit());
  b.assign("ctr_index", "ctr_rs1_i[6:4]");
  b.assign("ctr_reset", "ctr_valid_i && ctr_rs1_i[0]");
  b.assign("ctr_snap_reset", "ctr_valid_i && ctr_rs1_i[1]");
  b.assign("ctr_snap", "ctr_valid_i && ctr_rs1_i[2]");
  b.assign("ctr_config", "ctr_valid_i && ctr_rs1_i[3]");
  b.logic("unused_ctr", Type::bit());
  b.assign("unused_ctr", "^{ctr_rs1_i[30:18], ctr_rs1_i[11:7], perf_off}");
  b.assign("ctr_value_o", "snap_en_q ? ctr_snap_q[ctr_index] : ctr_val_q[ctr_index]");
  b.logicArray("ctr_next", Type::bits(32), "8", "value after this cycle's events", "mem2reg");
  vlog::Body& g = b.genFor("i", "8", "gen_counter");
  g.logic("cfg", Type::bits(7));
  g.logic("ext_level", Type::bits(32), "external level (reservation-station counts)");
  g.logic("ext_incr", Type::bits(32), "external increment (DMA bytes)");
  g.assign("cfg", "ctr_cfg_q[i]");
  g.assign("ext_level", "cfg[5:0] == 6'd1 ? 32'(ext_rob_ld_i) : cfg[5:0] == 6'd2 ? "
                        "32'(ext_rob_st_i) :\n"
                        "      cfg[5:0] == 6'd3 ? 32'(ext_rob_ex_i) : '0");
  g.assign("ext_incr", "cfg[5:0] == 6'd4 ? 32'(ext_rd_bytes_i) : cfg[5:0] == 6'd5 ? "
                       "32'(ext_wr_bytes_i) : '0");
  g.assign("ctr_next[i]",
           "!cfg[6] ? ctr_val_q[i] + 32'(cfg[5:0] != '0 && events_i[cfg[5:0]]) :\n"
           "      (cfg[5:0] <= 6'd3 && cfg[5:0] != '0) ? ext_level : ctr_val_q[i] + ext_incr");
  b.blank();

  // ================================================================ register reads
  b.comment("Register read multiplexer, from the ISA table's register map.");
  {
    std::vector<std::pair<std::string, vlog::Stmts::Fill>> arms;
    for (const isa::Register& r : isa::registers()) {
      std::string value;
      if (r.name == "ID")
        value = "32'h" + hexDigits(isa::kIdValue);
      else if (r.name == "VERSION")
        value = "32'd" + num(isa::kVersion);
      else if (r.name == "STATUS")
        value = packRegister("STATUS", {{"BUSY", "busy_i"},
                                        {"QUEUE_FULL", "!q_in_ready"},
                                        {"ERROR_PENDING", "error_q[7:0] != '0"},
                                        {"RESP_VALID", "resp_valid_q"}});
      else if (r.name == "ERROR")
        value = "{17'd0, error_q}";
      else if (r.name == "ERROR_COUNT")
        value = "error_count_q";
      else if (r.name == "IRQ_ENABLE")
        value = "{30'd0, irq_enable_q}";
      else if (r.name == "IRQ_STATUS")
        value = "{30'd0, irq_status_q}";
      else if (r.name == "CMD_FUNCT")
        value = "{25'd0, cmd_funct_q}";
      else if (r.name == "CMD_RS1_LO")
        value = "cmd_rs1_q[31:0]";
      else if (r.name == "CMD_RS1_HI")
        value = "cmd_rs1_q[63:32]";
      else if (r.name == "CMD_RS2_LO")
        value = "cmd_rs2_q[31:0]";
      else if (r.name == "CMD_RS2_HI")
        value = "cmd_rs2_q[63:32]";
      else if (r.name == "RESP_LO")
        value = "resp_q[31:0]";
      else if (r.name == "RESP_HI")
        value = "resp_q[63:32]";
      else if (r.name == "HW_DIM")
        value = "32'd" + num(p.dim);
      else if (r.name == "HW_LANES")
        value = "32'd" + num(p.array.lanes);
      else if (r.name == "HW_SP_ROWS")
        value = "32'd" + num(p.derived.spRows);
      else if (r.name == "HW_ACC_ROWS")
        value = "32'd" + num(p.derived.accRows);
      else if (r.name == "HW_FEATURES")
        value = packRegister("HW_FEATURES",
                             {{"WS", p.array.hasWs ? "1'b1" : "1'b0"},
                              {"OS", p.array.hasOs ? "1'b1" : "1'b0"},
                              {"TENSORDASH", p.config.tensordash.enabled ? "1'b1" : "1'b0"},
                              {"BOVEDA", p.config.boveda.enabled ? "1'b1" : "1'b0"}});
      else if (r.offset >= 0x100) {
        const int idx = static_cast<int>((r.offset - 0x100) / 8);
        value = (r.offset % 8 == 0) ? "perf_q[" + num(idx) + "][31:0]" : "perf_hi_q";
      } else {
        value = "'0"; // write-only registers read as zero
      }
      // Each readable register is a named 32-bit signal (Icarus does not support constant
      // selects inside always_comb, so the case below only picks whole signals).
      if (value == "'0")
        continue;
      const std::string sig =
          "r_" + std::string(1, static_cast<char>(std::tolower(r.name[0]))) + [&] {
            std::string rest;
            for (size_t i = 1; i < r.name.size(); ++i)
              rest += static_cast<char>(std::tolower(static_cast<unsigned char>(r.name[i])));
            return rest;
          }();
      b.logic(sig, Type::bits(32));
      b.assign(sig, value);
      arms.push_back(
          {hex12(r.offset), [sig](vlog::Stmts& s) { s.line("rd_data = " + sig + ";"); }});
    }
    b.comb().caseOf("rd_addr", arms, [](vlog::Stmts& s) { s.line("rd_data = '0;"); });
  }
  b.blank();

  // ================================================================ state
  const auto reg = [&](const std::string& name) { return hex12(isa::registerOffset(name)); };
  vlog::SeqItem& q = b.sequential();
  q.reset.line("cmd_funct_q <= '0;").line("cmd_rs1_q <= '0;").line("cmd_rs2_q <= '0;");
  q.reset.line("bvalid_q <= 1'b0;").line("rvalid_q <= 1'b0;").line("rdata_q <= '0;");
  q.reset.line("resp_q <= '0;").line("resp_valid_q <= 1'b0;");
  q.reset.line("error_q <= '0;").line("error_count_q <= '0;");
  q.reset.line("irq_enable_q <= '0;").line("irq_status_q <= '0;").line("busy_q <= 1'b0;");
  q.reset.line("perf_hi_q <= '0;").line("snap_en_q <= 1'b0;");
  q.reset.forLoop("i", "NumPerf", [](vlog::Stmts& s) { s.line("perf_q[i] <= '0;"); });
  q.reset.forLoop("i", "8", [](vlog::Stmts& s) {
    s.line("ctr_cfg_q[i] <= '0;").line("ctr_val_q[i] <= '0;").line("ctr_snap_q[i] <= '0;");
  });
  vlog::Stmts& c = q.clocked;
  c.comment("AXI4-Lite handshakes.");
  c.ifElse(
      "wr_go", [](vlog::Stmts& s) { s.line("bvalid_q <= 1'b1;"); },
      [](vlog::Stmts& s) {
        s.ifElse("s_axil_bready_i", [](vlog::Stmts& t) { t.line("bvalid_q <= 1'b0;"); });
      });
  c.ifElse(
      "rd_go", [](vlog::Stmts& s) { s.line("rvalid_q <= 1'b1;").line("rdata_q <= rd_data;"); },
      [](vlog::Stmts& s) {
        s.ifElse("s_axil_rready_i", [](vlog::Stmts& t) { t.line("rvalid_q <= 1'b0;"); });
      });
  c.comment("Register writes.");
  c.ifElse("wr_go", [&](vlog::Stmts& s) {
    s.caseOf(
        "wr_addr",
        {{reg("CMD_FUNCT"), [](vlog::Stmts& t) { t.line("cmd_funct_q <= s_axil_wdata_i[6:0];"); }},
         {reg("CMD_RS1_LO"), [](vlog::Stmts& t) { t.line("cmd_rs1_q[31:0] <= s_axil_wdata_i;"); }},
         {reg("CMD_RS1_HI"), [](vlog::Stmts& t) { t.line("cmd_rs1_q[63:32] <= s_axil_wdata_i;"); }},
         {reg("CMD_RS2_LO"), [](vlog::Stmts& t) { t.line("cmd_rs2_q[31:0] <= s_axil_wdata_i;"); }},
         {reg("CMD_RS2_HI"), [](vlog::Stmts& t) { t.line("cmd_rs2_q[63:32] <= s_axil_wdata_i;"); }},
         {reg("IRQ_ENABLE"),
          [](vlog::Stmts& t) { t.line("irq_enable_q <= s_axil_wdata_i[1:0];"); }}},
        [](vlog::Stmts& t) { t.line("// other registers: read-only or handled below"); });
  });
  c.comment("Reads with side effects: LO latches HI; RESP_HI consumes the response.");
  c.ifElse("rd_go && rd_addr >= 12'h100",
           [](vlog::Stmts& s) { s.line("perf_hi_q <= perf_hi_next;"); });
  c.ifElse("rd_go && rd_addr == " + reg("RESP_HI"),
           [](vlog::Stmts& s) { s.line("resp_valid_q <= 1'b0;"); });
  c.ifElse("resp_valid_i && resp_mmio_i",
           [](vlog::Stmts& s) { s.line("resp_q <= resp_data_i;").line("resp_valid_q <= 1'b1;"); });
  c.comment("Errors and interrupts.");
  c.line("error_count_q <= error_count_q + 32'(err_incr);");
  c.ifElse(
      "wr_go && wr_addr == " + reg("ERROR") + " && s_axil_wdata_i[7:0] != '0",
      [](vlog::Stmts& s) { s.line("error_q <= '0;"); },
      [](vlog::Stmts& s) {
        s.ifElse("any_err && error_q[7:0] == '0",
                 [](vlog::Stmts& t) { t.line("error_q <= new_error;"); });
      });
  c.line("busy_q <= busy_i;");
  c.ifElse(
      "wr_go && wr_addr == " + reg("IRQ_STATUS"),
      [](vlog::Stmts& s) {
        s.line("irq_status_q <= (irq_status_q & ~s_axil_wdata_i[1:0]) |");
        s.line("    {any_err, busy_q && !busy_i};");
      },
      [](vlog::Stmts& s) {
        s.line("irq_status_q <= irq_status_q | {any_err, busy_q && !busy_i};");
      });
  c.comment("Performance counters.");
  c.forLoop("i", "NumPerf", [](vlog::Stmts& s) {
    s.line("perf_q[i] <= perf_reset ? '0 : perf_q[i] + 64'(perf_inc[i]);");
  });
  c.comment("COUNTER_OP: configure / reset / snapshot (the value read is the old one).");
  c.forLoop("i", "8", [](vlog::Stmts& s) {
    s.ifElse(
        "ctr_reset",
        [](vlog::Stmts& t) { t.line("ctr_val_q[i] <= '0;").line("ctr_snap_q[i] <= '0;"); },
        [](vlog::Stmts& t) {
          t.ifElse(
              "ctr_config && ctr_index == 3'(i)",
              [](vlog::Stmts& u) {
                u.line("ctr_cfg_q[i] <= {ctr_rs1_i[31], ctr_rs1_i[17:12]};")
                    .line("ctr_val_q[i] <= '0;");
              },
              [](vlog::Stmts& u) { u.line("ctr_val_q[i] <= ctr_next[i];"); });
          t.ifElse("ctr_snap && !ctr_snap_reset",
                   [](vlog::Stmts& u) { u.line("ctr_snap_q[i] <= ctr_val_q[i];"); });
        });
  });
  c.ifElse(
      "ctr_reset || ctr_snap_reset", [](vlog::Stmts& s) { s.line("snap_en_q <= 1'b0;"); },
      [](vlog::Stmts& s) {
        s.ifElse("ctr_snap", [](vlog::Stmts& t) { t.line("snap_en_q <= 1'b1;"); });
      });
  return m;
}

} // namespace by::hw
