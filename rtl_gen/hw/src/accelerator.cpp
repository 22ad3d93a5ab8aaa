// The accelerator top: wires the command frontend, the decoder, the reservation station, the
// three controllers, the two memories and the two DMA engines together (docs/architecture.md,
// "Accelerator"). It holds no logic of its own beyond status and event collection.
#include "accelerator.h"

#include "axi_ports.h"
#include "cmd_frontend.h"
#include "hwspec/isa.h"
#include "memory_clients.h"
#include "op_layouts.h"
#include "text_util.h"

#include <map>
#include <tuple>

namespace by::hw {

using vlog::Type;

namespace {
// The controllers the reservation station dispatches to (the prefixes of their wires).
const char* const kControllers[] = {"ld", "st", "ex"};

using Conns = std::vector<std::pair<std::string, std::string>>;

/// The SRAM accesses of a memory this cycle: one per client whose request is granted.
std::string accessSum(const std::string& prefix, const std::vector<std::string>& clients) {
  std::string sum;
  for (const std::string& c : clients)
    sum += (sum.empty() ? "" : " +\n      ") + std::to_string(kAccessBits) + "'(" + prefix + c +
           "_valid && " + prefix + c + "_ready)";
  return sum.empty() ? std::to_string(kAccessBits) + "'(0)" : sum;
}

/// The accumulator's internal reads this cycle: a granted write that takes the
/// read-modify-write path reads its row first (banked_memory.cpp: the execute client's writes
/// always, other clients' when they accumulate).
std::string rmwReads() {
  std::string sum;
  for (const std::string& c : accumulatorClients().writes) {
    const std::string w = "acc_wr_" + c;
    sum += (sum.empty() ? "" : " +\n      ") + std::to_string(kAccessBits) + "'(" + w +
           "_valid && " + w + "_ready" + (c == "exe" ? "" : " && " + w + "_accumulate") + ")";
  }
  return sum;
}

/// Reconnects the ports `ports` of an instance to "pl_" + the wire they had (declared by
/// declareDiverted): the instance now talks to a unit in front of it.
using PortWidths = std::vector<std::pair<std::string, int>>;
void divert(vlog::InstanceItem& inst, const PortWidths& ports) {
  for (const auto& [port, width] : ports)
    for (auto& [name, wire] : inst.conns)
      if (name == port)
        wire = "pl_" + wire;
}
void declareDiverted(vlog::Body& b, const Conns& conns, const PortWidths& ports) {
  for (const auto& [port, width] : ports)
    for (const auto& [name, wire] : conns)
      if (name == port)
        b.logic("pl_" + wire, Type::bits(width));
}

/// The plain load controller's ports that the Boveda loader takes over.
PortWidths loaderDiverted(const AccelParams& p) {
  const int lenBits = config::log2Exact(p.maxBytes) + 1;
  return {{"op_valid_i", 1},
          {"op_ready_o", 1},
          {"done_valid_o", 1},
          {"done_id_o", p.rsIdBits},
          {"err_valid_o", 1},
          {"err_ch_o", 2},
          {"dma_req_valid_o", 1},
          {"dma_req_ready_i", 1},
          {"dma_req_addr_o", 32},
          {"dma_req_len_o", lenBits},
          {"dma_req_tag_o", p.dmaTagBits},
          {"dma_resp_valid_i", 1},
          {"dma_resp_ready_o", 1},
          {"sp_valid_o", 1},
          {"sp_ready_i", 1},
          {"sp_row_o", p.spRowBits},
          {"sp_data_o", p.spElems * p.iw},
          {"sp_mask_o", p.spElems},
          {"busy_o", 1},
          {"dma_wait_o", 1}};
}

/// Boveda: the loader in front of the plain load controller (boveda_loader.cpp). The plain
/// controller's operation, completion, DMA-read, scratchpad-write and status ports go to the
/// loader, which drives the shared wires.
void bovedaLoader(vlog::Body& b, vlog::InstanceItem& load, const AccelParams& p) {
  divert(load, loaderDiverted(p));
  b.assign("ld_busy", "pl_ld_busy || bl_busy");
  b.assign("ld_dma_wait", "pl_ld_dma_wait || bl_dma_wait");
  auto& i = b.instance(names::kBovedaLoader, "u_boveda_loader");
  i.conns = {{"clk_i", "clk_i"},
             {"rst_ni", "rst_ni"},
             {"op_valid_i", "ld_op_valid"},
             {"op_ready_o", "ld_op_ready"},
             {"op_id_i", "ld_op_id"},
             {"op_payload_i", "ld_op_payload"},
             {"done_valid_o", "ld_done_valid"},
             {"done_id_o", "ld_done_id"},
             {"err_valid_o", "ld_err"},
             {"err_ch_o", "ld_err_ch"},
             {"pl_op_valid_o", "pl_ld_op_valid"},
             {"pl_op_ready_i", "pl_ld_op_ready"},
             {"pl_done_valid_i", "pl_ld_done_valid"},
             {"pl_done_id_i", "pl_ld_done_id"},
             {"pl_err_i", "pl_ld_err"},
             {"pl_err_ch_i", "pl_ld_err_ch"},
             {"dma_req_valid_o", "dma_rd_req_valid"},
             {"dma_req_ready_i", "dma_rd_req_ready"},
             {"dma_req_addr_o", "dma_rd_req_addr"},
             {"dma_req_len_o", "dma_rd_req_len"},
             {"dma_req_tag_o", "dma_rd_req_tag"},
             {"pl_dma_req_valid_i", "pl_dma_rd_req_valid"},
             {"pl_dma_req_ready_o", "pl_dma_rd_req_ready"},
             {"pl_dma_req_addr_i", "pl_dma_rd_req_addr"},
             {"pl_dma_req_len_i", "pl_dma_rd_req_len"},
             {"pl_dma_req_tag_i", "pl_dma_rd_req_tag"},
             {"dma_resp_valid_i", "dma_rd_resp_valid"},
             {"dma_resp_ready_o", "dma_rd_resp_ready"},
             {"dma_resp_tag_i", "dma_rd_resp_tag"},
             {"dma_resp_data_i", "dma_rd_resp_data"},
             {"dma_resp_error_i", "dma_rd_resp_error"},
             {"pl_dma_resp_valid_o", "pl_dma_rd_resp_valid"},
             {"pl_dma_resp_ready_i", "pl_dma_rd_resp_ready"},
             {"sp_valid_o", "sp_wr_ld_valid"},
             {"sp_ready_i", "sp_wr_ld_ready"},
             {"sp_row_o", "sp_wr_ld_row"},
             {"sp_data_o", "sp_wr_ld_data"},
             {"sp_mask_o", "sp_wr_ld_mask"},
             {"pl_sp_valid_i", "pl_sp_wr_ld_valid"},
             {"pl_sp_ready_o", "pl_sp_wr_ld_ready"},
             {"pl_sp_row_i", "pl_sp_wr_ld_row"},
             {"pl_sp_data_i", "pl_sp_wr_ld_data"},
             {"pl_sp_mask_i", "pl_sp_wr_ld_mask"},
             {"busy_o", "bl_busy"},
             {"dma_wait_o", "bl_dma_wait"},
             {"stream_bytes_o", "bl_stream_bytes"}};
  if (p.config.boveda.onChip)
    i.conns.insert(i.conns.end(), {{"sp_rd_valid_o", "sp_rd_ld_valid"},
                                   {"sp_rd_ready_i", "sp_rd_ld_ready"},
                                   {"sp_rd_row_o", "sp_rd_ld_row"},
                                   {"sp_rd_rvalid_i", "sp_rd_ld_rvalid"},
                                   {"sp_rd_rdata_i", "sp_rd_ld_rdata"}});
}
// A wire of w bits.
void wire(vlog::Body& b, const std::string& n, int w) {
  b.logic(n, Type::bits(w));
}

// A controller's operation and completion ports to the reservation station's wires of kind k.
Conns opConns(const std::string& k) {
  return Conns{{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"op_valid_i", k + "_op_valid"},
               {"op_ready_o", k + "_op_ready"},
               {"op_id_i", k + "_op_id"},
               {"op_payload_i", k + "_op_payload"},
               {"done_valid_o", k + "_done_valid"},
               {"done_id_o", k + "_done_id"}};
}

// A memory's client ports to the wires <prefix>_rd_<client>_* / <prefix>_wr_<client>_*.
Conns memConns(const std::string& prefix, const std::vector<std::string>& reads,
               const std::vector<std::string>& writes, bool acc) {
  Conns c = {{"clk_i", "clk_i"}, {"rst_ni", "rst_ni"}};
  for (const std::string& r : reads)
    for (const char* s : {"valid_i", "ready_o", "row_i", "rvalid_o", "rdata_o"}) {
      const std::string sig = s;
      c.emplace_back("rd_" + r + "_" + sig,
                     prefix + "_rd_" + r + "_" + sig.substr(0, sig.size() - 2));
    }
  for (const std::string& w : writes) {
    std::vector<std::string> sigs = {"valid_i", "ready_o", "row_i", "data_i", "mask_i"};
    if (acc) {
      sigs.push_back("accumulate_i");
      sigs.push_back("done_o");
    }
    for (const std::string& sig : sigs)
      c.emplace_back("wr_" + w + "_" + sig,
                     prefix + "_wr_" + w + "_" + sig.substr(0, sig.size() - 2));
  }
  return c;
}

} // namespace

void AcceleratorGenerator::initSizes() {
  const AccelParams& p = p_;
  dma_ = dmaParams(p.config, p.dmaTagBits);
  range_ = rangeLayout(p);
  payload_ = opPayloadWidth(p);
  rangesWidth_ = kRangesPerOp * range_.width();
  lenBits_ = dma_.lenWidth();
  idBits_ = dma_.idWidth();
  spRow_ = p.spElems * p.iw;
  accRow_ = p.dim * p.aw;
  byteBits_ = config::log2Exact(p.maxBytes) + 2;
  boveda_ = p.config.boveda.enabled;
  td_ = p.config.tensordash.enabled;
  loops_ = p.config.loops.ws;
  conv_ = p.config.loops.conv;
  table_ = p.config.activations.table;
  spReads_ = scratchpadClients(p).reads;
}

vlog::Module AcceleratorGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  controlWires(b);
  memoryAndDmaWires(b);
  frontendAndDecoder(b);
  controllers(b);
  executeMemoriesDma(b);
  statusAndEvents(b);
  return m;
}

vlog::Module AcceleratorGenerator::ports() const {
  const AccelParams& p = p_;
  vlog::Module m(names::kAccelerator,
                 "Brickyard accelerator: a " + num(p.dim) + "x" + num(p.dim) +
                     (p.lanes > 1 ? " array of " + num(p.lanes) + "-lane vector PEs" : " array") +
                     " with scratchpad, accumulator, DMA and controllers. Commands arrive "
                     "on the RoCC-style port or through the AXI4-Lite registers (docs/isa.md); "
                     "data moves over the AXI4 master.");
  m.clockAndReset();
  m.portGroup("RoCC-style command port and response.");
  m.input("cmd_valid_i", Type::bit());
  m.output("cmd_ready_o", Type::bit());
  m.input("cmd_funct_i", Type::bits(7));
  m.input("cmd_rs1_i", Type::bits(64));
  m.input("cmd_rs2_i", Type::bits(64));
  m.input("cmd_xd_i", Type::bit(), "the instruction writes rd (a response follows)");
  m.output("resp_valid_o", Type::bit());
  m.input("resp_ready_i", Type::bit());
  m.output("resp_data_o", Type::bits(64));
  m.portGroup("AXI4-Lite slave: control registers.");
  axi::addPorts(m, "s_axil_", axi::liteSignals(), false,
                {{"ADDR", "16"}, {"DATA", "32"}, {"STRB", "4"}});
  m.portGroup("AXI4 master: DMA to memory.");
  axi::addPorts(m, "m_axi_", axi::fullSignals(), true,
                {{"ID", num(idBits_)},
                 {"ADDR", num(dma_.addrWidth)},
                 {"DATA", num(dma_.dataWidth)},
                 {"STRB", num(dma_.dataWidth / 8)}});
  m.portGroup("Status.");
  m.output("irq_o", Type::bit());
  m.output("busy_o", Type::bit(), "commands in flight (a fence waits for this to fall)");

  return m;
}

void AcceleratorGenerator::controlWires(vlog::Body& b) const {
  const AccelParams& p = p_;

  // ---------------------------------------------------------------- frontend <-> decoder
  b.comment("Frontend to decoder.");
  wire(b, "cmd_valid", 1);
  wire(b, "cmd_ready", 1);
  wire(b, "cmd_funct", 7);
  wire(b, "cmd_rs1", 64);
  wire(b, "cmd_rs2", 64);
  wire(b, "cmd_xd", 1);
  wire(b, "cmd_mmio", 1);
  wire(b, "dec_resp_valid", 1);
  wire(b, "dec_resp_ready", 1);
  wire(b, "dec_resp_mmio", 1);
  wire(b, "dec_resp_data", 64);
  wire(b, "dec_err_valid", 1);
  wire(b, "dec_err_code", 8);
  wire(b, "dec_err_funct", 7);
  wire(b, "ctr_valid", 1);
  wire(b, "ctr_rs1", 32);
  wire(b, "ctr_value", 32);
  wire(b, "queue_busy", 1);
  const std::vector<std::pair<std::string, int>> cmdWires = {
      {"valid", 1}, {"ready", 1}, {"funct", 7}, {"rs1", 64}, {"rs2", 64}, {"xd", 1}, {"mmio", 1}};
  if (loops_ || conv_) {
    b.comment("Frontend to the loop unrollers (host commands).");
    for (const auto& [n, w] : cmdWires)
      wire(b, "host_cmd_" + n, w);
  }
  if (loops_) {
    b.comment("The LOOP_WS unroller's checks and start.");
    wire(b, "lw_loop_err", 8);
    wire(b, "lw_start", 1);
    wire(b, "lw_busy", 1);
  }
  if (loops_ && conv_) {
    b.comment("LOOP_WS unroller to the LOOP_CONV_WS unroller.");
    for (const auto& [n, w] : cmdWires)
      wire(b, "lw_cmd_" + n, w);
    wire(b, "lw_cmd_bstride", 16);
  }
  if (loops_ || conv_) {
    b.comment("With the decoder's command: the block stride of a loop's move (0: the channel's).");
    wire(b, "cmd_bstride", 16);
  }
  if (table_) {
    b.comment("The mvout's function table: CONFIG_TABLE from the decoder, entries to the store "
              "controller.");
    wire(b, "table_write", 1);
    wire(b, "mvout_table", 256 * 8);
    wire(b, "mvout_table_en", 1);
  }
  if (conv_) {
    b.comment("The LOOP_CONV_WS unroller's checks and start, and CONFIG_EX's strides (which a "
              "trans_input_3120 loop restores after its own).");
    wire(b, "lc_loop_err", 8);
    wire(b, "lc_start", 1);
    wire(b, "lc_busy", 1);
    if (hasAStep(p_))
      wire(b, "cmd_astep", std::max(1, config::log2Exact(p_.dim)));
    wire(b, "ex_a_stride", 16);
    wire(b, "ex_c_stride", 16);
  }
  b.comment("Decoder to the compute merger (or straight on), and to the reservation station.");
  wire(b, "dec_op_valid", 1);
  wire(b, "dec_op_ready", 1);
  wire(b, "dec_op_kind", 2);
  wire(b, "dec_op_payload", payload_);
  wire(b, "dec_op_ranges", rangesWidth_);
  if (mergesComputes(p))
    wire(b, "dec_ex_next", 1);
  wire(b, "merge_busy", 1);
  wire(b, "op_valid", 1);
  wire(b, "op_ready", 1);
  wire(b, "op_kind", 2);
  wire(b, "op_payload", payload_);
  wire(b, "op_ranges", rangesWidth_);
  b.comment("Reservation station to the controllers and back.");
  for (const std::string k : kControllers) {
    wire(b, k + "_op_valid", 1);
    wire(b, k + "_op_ready", 1);
    wire(b, k + "_op_id", p.rsIdBits);
    wire(b, k + "_op_payload", payload_);
    wire(b, k + "_done_valid", 1);
    wire(b, k + "_done_id", p.rsIdBits);
    wire(b, k + "_busy", 1);
  }
  if (mergesComputes(p)) { // the station's execute port, through the compute splitter
    for (const char* w : {"valid", "ready"})
      wire(b, std::string("rsx_op_") + w, 1);
    wire(b, "rsx_op_id", p.rsIdBits);
    wire(b, "rsx_op_payload", payload_);
    wire(b, "rsx_done_valid", 1);
    wire(b, "rsx_done_id", p.rsIdBits);
  }
  wire(b, "rs_busy", 1);
  wire(b, "rs_full", 1);
  wire(b, "rs_stall", 1);
  wire(b, "rs_ld_count", p.rsIdBits + 1);
  wire(b, "rs_st_count", p.rsIdBits + 1);
  wire(b, "rs_ex_count", p.rsIdBits + 1);
  b.comment("Memory clients: scratchpad reads (exe a/b/d, store), writes (exe, load); "
            "accumulator reads (exe, store), writes (exe, load).");
  for (const std::string& r : spReads_) {
    const std::string c = "sp_rd_" + r;
    wire(b, c + "_valid", 1);
    wire(b, c + "_ready", 1);
    wire(b, c + "_row", p.spRowBits);
    wire(b, c + "_rvalid", 1);
    wire(b, c + "_rdata", r == "exe_fa" || r == "exe_fb" ? spRow_ * p.spWordRows : spRow_);
  }
  for (const std::string& r : accumulatorClients().reads) {
    const std::string c = "acc_rd_" + r;
    wire(b, c + "_valid", 1);
    wire(b, c + "_ready", 1);
    wire(b, c + "_row", p.accRowBits);
    wire(b, c + "_rvalid", 1);
    wire(b, c + "_rdata", accRow_);
  }
  for (const std::string& w : scratchpadClients(p).writes) {
    const std::string c = "sp_wr_" + w;
    wire(b, c + "_valid", 1);
    wire(b, c + "_ready", 1);
    wire(b, c + "_row", p.spRowBits);
    wire(b, c + "_data", spRow_);
    wire(b, c + "_mask", p.spElems);
  }
  for (const std::string& w : accumulatorClients().writes) {
    const std::string c = "acc_wr_" + w;
    wire(b, c + "_valid", 1);
    wire(b, c + "_ready", 1);
    wire(b, c + "_row", p.accRowBits);
    wire(b, c + "_data", accRow_);
    wire(b, c + "_mask", p.dim);
    wire(b, c + "_accumulate", 1);
    wire(b, c + "_done", 1);
  }
}

void AcceleratorGenerator::memoryAndDmaWires(vlog::Body& b) const {
  const AccelParams& p = p_;
  b.comment("DMA engines.");
  for (const std::string& d : {std::string("rd"), std::string("wr")}) {
    wire(b, "dma_" + d + "_req_valid", 1);
    wire(b, "dma_" + d + "_req_ready", 1);
    wire(b, "dma_" + d + "_req_addr", 32);
    wire(b, "dma_" + d + "_req_len", lenBits_);
    wire(b, "dma_" + d + "_req_tag", p.dmaTagBits);
    wire(b, "dma_" + d + "_busy", 1);
    wire(b, "dma_" + d + "_bytes", lenBits_);
  }
  wire(b, "dma_wr_req_data", p.maxBytes * 8);
  wire(b, "dma_rd_resp_valid", 1);
  wire(b, "dma_rd_resp_ready", 1);
  wire(b, "dma_rd_resp_tag", p.dmaTagBits);
  wire(b, "dma_rd_resp_data", p.maxBytes * 8);
  wire(b, "dma_rd_resp_error", 1);
  wire(b, "dma_wr_done_valid", 1);
  wire(b, "dma_wr_done_ready", 1);
  wire(b, "dma_wr_done_tag", p.dmaTagBits);
  wire(b, "dma_wr_done_error", 1);
  b.comment("Errors and status from the controllers.");
  wire(b, "ld_err", 1);
  wire(b, "ld_err_ch", 2);
  if (boveda_) {
    b.comment("Boveda loader status.");
    wire(b, "bl_busy", 1);
    wire(b, "bl_dma_wait", 1);
    wire(b, "bl_stream_bytes", lenBits_);
    wire(b, "bs_stream_bytes", lenBits_);
  }
  wire(b, "st_err", 1);
  wire(b, "ld_dma_wait", 1);
  wire(b, "st_dma_wait", 1);
  wire(b, "st_pooling", 1);
  wire(b, "ex_beat", 1);
  wire(b, "ex_compute_beat", 1);
  wire(b, "ex_macs", macCountBits(p));
  wire(b, "ex_bank_stall", 1);
  if (td_) {
    wire(b, "ex_macs_skipped", macCountBits(p));
    wire(b, "ex_window_stall", 1);
    wire(b, "ex_feed_stall", 1);
    wire(b, "ex_short_beat", 1);
  }
  wire(b, "busy", 1);
  for (const char* n : {"sp_reads", "sp_writes", "acc_reads", "acc_writes"})
    wire(b, n, kAccessBits);
  wire(b, "events", 64);
  b.blank();

  // ---------------------------------------------------------------- instances
}

// frontend -> [by_loop_ws] -> [by_loop_conv_ws] -> decoder: each unroller passes the
// commands at its input through while it is idle.
void AcceleratorGenerator::loopUnrollers(vlog::Body& b) const {
  auto chain = [&](vlog::InstanceItem& i, const std::string& in, const std::string& out) {
    i.conns = {{"clk_i", "clk_i"}, {"rst_ni", "rst_ni"}};
    for (const char* n : {"valid", "ready", "funct", "rs1", "rs2", "xd", "mmio"}) {
      const std::string dir = std::string(n) == "ready" ? "_o" : "_i";
      const std::string back = std::string(n) == "ready" ? "_i" : "_o";
      i.conns.emplace_back("host_" + std::string(n) + dir, in + n);
      i.conns.emplace_back("cmd_" + std::string(n) + back, out + n);
    }
  };
  if (loops_) {
    auto& i = b.instance(names::kLoopWs, "u_loop_ws");
    chain(i, "host_cmd_", conv_ ? "lw_cmd_" : "cmd_");
    i.conns.insert(i.conns.end(), {{"cmd_bstride_o", conv_ ? "lw_cmd_bstride" : "cmd_bstride"},
                                   {"loop_err_o", "lw_loop_err"},
                                   {"start_i", "lw_start"},
                                   {"busy_o", "lw_busy"}});
  }
  if (conv_) {
    auto& i = b.instance(names::kLoopConv, "u_loop_conv");
    chain(i, loops_ ? "lw_cmd_" : "host_cmd_", "cmd_");
    if (hasAStep(p_))
      i.conns.push_back({"cmd_astep_o", "cmd_astep"});
    if (loops_)
      i.conns.push_back({"host_bstride_i", "lw_cmd_bstride"});
    i.conns.insert(i.conns.end(), {{"cmd_bstride_o", "cmd_bstride"},
                                   {"loop_err_o", "lc_loop_err"},
                                   {"start_i", "lc_start"},
                                   {"busy_o", "lc_busy"},
                                   {"ex_a_stride_i", "ex_a_stride"},
                                   {"ex_c_stride_i", "ex_c_stride"}});
  }
}

void AcceleratorGenerator::frontendAndDecoder(vlog::Body& b) const {
  const AccelParams& p = p_;
  {
    auto& i = b.instance(names::kFrontend, "u_frontend");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"rocc_cmd_valid_i", "cmd_valid_i"},
               {"rocc_cmd_ready_o", "cmd_ready_o"},
               {"rocc_cmd_funct_i", "cmd_funct_i"},
               {"rocc_cmd_rs1_i", "cmd_rs1_i"},
               {"rocc_cmd_rs2_i", "cmd_rs2_i"},
               {"rocc_cmd_xd_i", "cmd_xd_i"},
               {"rocc_resp_valid_o", "resp_valid_o"},
               {"rocc_resp_ready_i", "resp_ready_i"},
               {"rocc_resp_data_o", "resp_data_o"}};
    const Conns lite = axi::connect(axi::liteSignals(), "s_axil_", "s_axil_", false);
    i.conns.insert(i.conns.end(), lite.begin(), lite.end());
    const std::string fe = loops_ || conv_ ? "host_cmd_" : "cmd_"; // the unrollers, when built
    const Conns rest = {{"cmd_valid_o", fe + "valid"},
                        {"cmd_ready_i", fe + "ready"},
                        {"cmd_funct_o", fe + "funct"},
                        {"cmd_rs1_o", fe + "rs1"},
                        {"cmd_rs2_o", fe + "rs2"},
                        {"cmd_xd_o", fe + "xd"},
                        {"cmd_mmio_o", fe + "mmio"},
                        {"resp_valid_i", "dec_resp_valid"},
                        {"resp_ready_o", "dec_resp_ready"},
                        {"resp_mmio_i", "dec_resp_mmio"},
                        {"resp_data_i", "dec_resp_data"},
                        {"err_valid_i", "dec_err_valid"},
                        {"err_code_i", "dec_err_code"},
                        {"err_funct_i", "dec_err_funct"},
                        {"ld_err_i", "ld_err"},
                        {"ld_err_ch_i", "ld_err_ch"},
                        {"st_err_i", "st_err"},
                        {"ctr_valid_i", "ctr_valid"},
                        {"ctr_rs1_i", "ctr_rs1"},
                        {"ctr_value_o", "ctr_value"},
                        {"events_i", "events"},
                        {"ext_rob_ld_i", "8'(rs_ld_count)"},
                        {"ext_rob_st_i", "8'(rs_st_count)"},
                        {"ext_rob_ex_i", "8'(rs_ex_count)"},
                        {"ext_rd_bytes_i", num(byteBits_) + "'(dma_rd_bytes)"},
                        {"ext_wr_bytes_i", num(byteBits_) + "'(dma_wr_bytes)"}};
    i.conns.insert(i.conns.end(), rest.begin(), rest.end());
    for (const PerfEvent& e : perfEvents(p)) {
      if (e.port.empty())
        continue;
      std::string v;
      if (e.port == "ev_busy_i")
        v = "busy";
      else if (e.port == "ev_macs_i")
        v = num(e.width) + "'(ex_macs)";
      else if (e.port == "ev_macs_skipped_i" && td_)
        v = num(e.width) + "'(ex_macs_skipped)";
      else if (e.port == "ev_window_stalls_i" && td_)
        v = "ex_window_stall";
      else if (e.port == "ev_feed_stalls_i" && td_)
        v = "ex_feed_stall";
      else if (e.port == "ev_short_beats_i" && td_)
        v = "ex_short_beat";
      else if (e.port == "ev_compute_beats_i")
        v = "ex_compute_beat";
      else if (e.port == "ev_exec_active_i")
        v = "ex_beat";
      else if (e.port == "ev_load_active_i")
        v = "ld_busy";
      else if (e.port == "ev_store_active_i")
        v = "st_busy";
      else if (e.port == "ev_dma_read_bytes_i")
        v = num(e.width) + "'(dma_rd_bytes)";
      else if (e.port == "ev_dma_write_bytes_i")
        v = num(e.width) + "'(dma_wr_bytes)";
      else if (e.port == "ev_stall_dependency_i")
        v = "rs_stall";
      else if (e.port == "ev_stall_bank_i")
        v = "ex_bank_stall";
      else if (e.port == "ev_stall_dma_i")
        v = "ld_dma_wait || st_dma_wait";
      else if (e.port == "ev_wait_dma_i")
        v = "busy && !ex_beat && (ld_dma_wait || st_dma_wait)";
      else if (e.port == "ev_wait_dependency_i")
        v = "busy && !ex_beat && !(ld_dma_wait || st_dma_wait) && rs_stall";
      else if (e.port == "ev_sp_reads_i")
        v = "sp_reads";
      else if (e.port == "ev_sp_writes_i")
        v = "sp_writes";
      else if (e.port == "ev_acc_reads_i")
        v = "acc_reads";
      else if (e.port == "ev_acc_writes_i")
        v = "acc_writes";
      else if (e.port == "ev_compressed_bytes_i" && boveda_)
        v = num(e.width) + "'(bl_stream_bytes) + " + num(e.width) + "'(bs_stream_bytes)";
      else if (e.port == "ev_commands_i")
        v = "2'(ld_done_valid) + 2'(st_done_valid) + 2'(ex_done_valid)";
      else
        v = "{" + num(e.width) + "{1'b0}}"; // TensorDash and Boveda events: not in this hardware
      i.conns.emplace_back(e.port, v);
    }
    i.conns.emplace_back("busy_i", "busy");
    i.conns.emplace_back("queue_busy_o", "queue_busy");
    i.conns.emplace_back("irq_o", "irq_o");
  }
  loopUnrollers(b);
  {
    auto& i = b.instance(names::kCmdDecoder, "u_decoder");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"cmd_valid_i", "cmd_valid"},
               {"cmd_ready_o", "cmd_ready"},
               {"cmd_funct_i", "cmd_funct"},
               {"cmd_rs1_i", "cmd_rs1"},
               {"cmd_rs2_i", "cmd_rs2"},
               {"cmd_xd_i", "cmd_xd"},
               {"cmd_mmio_i", "cmd_mmio"},
               {"op_valid_o", "dec_op_valid"},
               {"op_ready_i", "dec_op_ready"},
               {"op_kind_o", "dec_op_kind"},
               {"op_payload_o", "dec_op_payload"},
               {"op_ranges_o", "dec_op_ranges"},
               {"ctr_valid_o", "ctr_valid"},
               {"ctr_rs1_o", "ctr_rs1"},
               {"ctr_value_i", "ctr_value"},
               {"resp_valid_o", "dec_resp_valid"},
               {"resp_ready_i", "dec_resp_ready"},
               {"resp_mmio_o", "dec_resp_mmio"},
               {"resp_data_o", "dec_resp_data"},
               {"err_valid_o", "dec_err_valid"},
               {"err_code_o", "dec_err_code"},
               {"err_funct_o", "dec_err_funct"}};
    if (loops_)
      i.conns.insert(i.conns.end(), {{"loop_err_i", "lw_loop_err"}, {"loop_start_o", "lw_start"}});
    if (table_)
      i.conns.insert(i.conns.end(), {{"table_valid_o", "table_write"},
                                     {"st_idle_i", "rs_st_count == '0 && !st_busy"}});
    if (conv_)
      i.conns.insert(i.conns.end(), {{"conv_err_i", "lc_loop_err"},
                                     {"conv_start_o", "lc_start"},
                                     {"ex_a_stride_o", "ex_a_stride"},
                                     {"ex_c_stride_o", "ex_c_stride"}});
    if (loops_ || conv_)
      i.conns.push_back({"cmd_bstride_i", "cmd_bstride"});
    if (hasAStep(p_))
      i.conns.push_back({"cmd_astep_i", "cmd_astep"});
    if (mergesComputes(p_))
      i.conns.push_back({"ex_next_o", "dec_ex_next"});
  }
  computeMerger(b);
}

// Between the decoder and the station: the compute merger where the config merges computes
// (exec_merge.cpp), else wires.
void AcceleratorGenerator::computeMerger(vlog::Body& b) const {
  if (!mergesComputes(p_)) {
    for (const char* s : {"valid", "kind", "payload", "ranges"})
      b.assign(std::string("op_") + s, std::string("dec_op_") + s);
    b.assign("dec_op_ready", "op_ready");
    b.assign("merge_busy", "1'b0");
    return;
  }
  auto& i = b.instance(names::kExecMerger, "u_merger");
  i.conns = {{"clk_i", "clk_i"},
             {"rst_ni", "rst_ni"},
             {"in_valid_i", "dec_op_valid"},
             {"in_ready_o", "dec_op_ready"},
             {"in_kind_i", "dec_op_kind"},
             {"in_payload_i", "dec_op_payload"},
             {"in_ranges_i", "dec_op_ranges"},
             {"ex_next_i", "dec_ex_next"},
             {"out_valid_o", "op_valid"},
             {"out_ready_i", "op_ready"},
             {"out_kind_o", "op_kind"},
             {"out_payload_o", "op_payload"},
             {"out_ranges_o", "op_ranges"},
             {"busy_o", "merge_busy"}};
}

void AcceleratorGenerator::controllers(vlog::Body& b) const {
  const AccelParams& p = p_;
  {
    auto& i = b.instance(names::kReservationStation, "u_rs");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"alloc_valid_i", "op_valid"},
               {"alloc_ready_o", "op_ready"},
               {"alloc_kind_i", "op_kind"},
               {"alloc_payload_i", "op_payload"},
               {"alloc_ranges_i", "op_ranges"}};
    for (const std::string k : kControllers) {
      const std::string w = k == "ex" && mergesComputes(p) ? "rsx" : k;
      i.conns.emplace_back(k + "_valid_o", w + "_op_valid");
      i.conns.emplace_back(k + "_ready_i", w + "_op_ready");
      i.conns.emplace_back(k + "_id_o", w + "_op_id");
      i.conns.emplace_back(k + "_payload_o", w + "_op_payload");
      i.conns.emplace_back(k + "_done_i", w + "_done_valid");
      i.conns.emplace_back(k + "_done_id_i", w + "_done_id");
    }
    i.conns.insert(i.conns.end(), {{"busy_o", "rs_busy"},
                                   {"full_o", "rs_full"},
                                   {"ld_count_o", "rs_ld_count"},
                                   {"st_count_o", "rs_st_count"},
                                   {"ex_count_o", "rs_ex_count"},
                                   {"stall_o", "rs_stall"}});
  }
  if (mergesComputes(p)) {
    auto& i = b.instance(names::kExecSplitter, "u_splitter");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "rsx_op_valid"},
               {"in_ready_o", "rsx_op_ready"},
               {"in_id_i", "rsx_op_id"},
               {"in_payload_i", "rsx_op_payload"},
               {"in_done_valid_o", "rsx_done_valid"},
               {"in_done_id_o", "rsx_done_id"},
               {"out_valid_o", "ex_op_valid"},
               {"out_ready_i", "ex_op_ready"},
               {"out_id_o", "ex_op_id"},
               {"out_payload_o", "ex_op_payload"},
               {"out_done_valid_i", "ex_done_valid"},
               {"out_done_id_i", "ex_done_id"}};
  }
  {
    Conns conns = opConns("ld");
    conns.insert(conns.end(), {{"dma_req_valid_o", "dma_rd_req_valid"},
                               {"dma_req_ready_i", "dma_rd_req_ready"},
                               {"dma_req_addr_o", "dma_rd_req_addr"},
                               {"dma_req_len_o", "dma_rd_req_len"},
                               {"dma_req_tag_o", "dma_rd_req_tag"},
                               {"dma_resp_valid_i", "dma_rd_resp_valid"},
                               {"dma_resp_ready_o", "dma_rd_resp_ready"},
                               {"dma_resp_tag_i", "dma_rd_resp_tag"},
                               {"dma_resp_data_i", "dma_rd_resp_data"},
                               {"dma_resp_error_i", "dma_rd_resp_error"},
                               {"sp_valid_o", "sp_wr_ld_valid"},
                               {"sp_ready_i", "sp_wr_ld_ready"},
                               {"sp_row_o", "sp_wr_ld_row"},
                               {"sp_data_o", "sp_wr_ld_data"},
                               {"sp_mask_o", "sp_wr_ld_mask"},
                               {"acc_valid_o", "acc_wr_ld_valid"},
                               {"acc_ready_i", "acc_wr_ld_ready"},
                               {"acc_row_o", "acc_wr_ld_row"},
                               {"acc_data_o", "acc_wr_ld_data"},
                               {"acc_mask_o", "acc_wr_ld_mask"},
                               {"acc_accumulate_o", "acc_wr_ld_accumulate"},
                               {"acc_done_i", "acc_wr_ld_done"},
                               {"busy_o", "ld_busy"},
                               {"dma_wait_o", "ld_dma_wait"},
                               {"err_valid_o", "ld_err"},
                               {"err_ch_o", "ld_err_ch"}});
    if (boveda_)
      declareDiverted(b, conns, loaderDiverted(p));
    auto& i = b.instance(names::kLoadController, "u_load");
    i.conns = conns;
    if (boveda_)
      bovedaLoader(b, i, p);
  }
  {
    auto& i = b.instance(names::kStoreController, "u_store");
    i.conns = opConns("st");
    i.conns.insert(i.conns.end(), {{"sp_valid_o", "sp_rd_st_valid"},
                                   {"sp_ready_i", "sp_rd_st_ready"},
                                   {"sp_row_o", "sp_rd_st_row"},
                                   {"sp_rvalid_i", "sp_rd_st_rvalid"},
                                   {"sp_rdata_i", "sp_rd_st_rdata"},
                                   {"acc_valid_o", "acc_rd_st_valid"},
                                   {"acc_ready_i", "acc_rd_st_ready"},
                                   {"acc_row_o", "acc_rd_st_row"},
                                   {"acc_rvalid_i", "acc_rd_st_rvalid"},
                                   {"acc_rdata_i", "acc_rd_st_rdata"},
                                   {"dma_req_valid_o", "dma_wr_req_valid"},
                                   {"dma_req_ready_i", "dma_wr_req_ready"},
                                   {"dma_req_addr_o", "dma_wr_req_addr"},
                                   {"dma_req_len_o", "dma_wr_req_len"},
                                   {"dma_req_data_o", "dma_wr_req_data"},
                                   {"dma_req_tag_o", "dma_wr_req_tag"},
                                   {"dma_done_valid_i", "dma_wr_done_valid"},
                                   {"dma_done_ready_o", "dma_wr_done_ready"},
                                   {"dma_done_tag_i", "dma_wr_done_tag"},
                                   {"dma_done_error_i", "dma_wr_done_error"},
                                   {"busy_o", "st_busy"},
                                   {"dma_wait_o", "st_dma_wait"},
                                   {"pooling_o", "st_pooling"},
                                   {"err_valid_o", "st_err"}});
    if (boveda_)
      i.conns.emplace_back("stream_bytes_o", "bs_stream_bytes");
    if (table_)
      i.conns.insert(i.conns.end(), {{"table_i", "mvout_table"}, {"table_en_i", "mvout_table_en"}});
  }
  if (table_) {
    auto& i = b.instance(names::kMvoutTable, "u_mvout_table");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"cmd_valid_i", "table_write"},
               {"cmd_rs1_i", "cmd_rs1"},
               {"cmd_rs2_i", "cmd_rs2"},
               {"table_o", "mvout_table"},
               {"enable_o", "mvout_table_en"}};
  }
}

void AcceleratorGenerator::executeMemoriesDma(vlog::Body& b) const {
  const AccelParams& p = p_;
  {
    auto& i = b.instance(names::kExecController, "u_execute");
    i.conns = opConns("ex");
    std::vector<std::pair<std::string, std::string>> rd = {{"spa", "sp_rd_exe_a"},
                                                           {"spb", "sp_rd_exe_b"},
                                                           {"spd", "sp_rd_exe_d"},
                                                           {"acc", "acc_rd_exe"}};
    if (td_)
      rd.insert(rd.end(), {{"spfa", "sp_rd_exe_fa"}, {"spfb", "sp_rd_exe_fb"}});
    for (const auto& [port, w] : rd) {
      i.conns.emplace_back(port + "_valid_o", w + "_valid");
      i.conns.emplace_back(port + "_ready_i", w + "_ready");
      i.conns.emplace_back(port + "_row_o", w + "_row");
      i.conns.emplace_back(port + "_rdata_i", w + "_rdata");
    }
    i.conns.insert(i.conns.end(), {{"spw_valid_o", "sp_wr_exe_valid"},
                                   {"spw_row_o", "sp_wr_exe_row"},
                                   {"spw_data_o", "sp_wr_exe_data"},
                                   {"spw_mask_o", "sp_wr_exe_mask"},
                                   {"accw_valid_o", "acc_wr_exe_valid"},
                                   {"accw_row_o", "acc_wr_exe_row"},
                                   {"accw_data_o", "acc_wr_exe_data"},
                                   {"accw_mask_o", "acc_wr_exe_mask"},
                                   {"accw_accumulate_o", "acc_wr_exe_accumulate"},
                                   {"accw_done_i", "acc_wr_exe_done"},
                                   {"busy_o", "ex_busy"},
                                   {"beat_o", "ex_beat"},
                                   {"compute_beat_o", "ex_compute_beat"},
                                   {"macs_o", "ex_macs"},
                                   {"bank_stall_o", "ex_bank_stall"}});
    if (td_)
      i.conns.insert(i.conns.end(), {{"macs_skipped_o", "ex_macs_skipped"},
                                     {"window_stall_o", "ex_window_stall"},
                                     {"feed_stall_o", "ex_feed_stall"},
                                     {"short_beat_o", "ex_short_beat"}});
  }
  b.instance(names::kScratchpad, "u_scratchpad").conns =
      memConns("sp", spReads_, scratchpadClients(p).writes, false);
  b.instance(names::kAccumulator, "u_accumulator").conns =
      memConns("acc", accumulatorClients().reads, accumulatorClients().writes, true);
  b.comment("The execute controller's scratchpad writes are always granted (top priority).");
  b.logic("unused_grants", Type::bit());
  b.assign("unused_grants",
           "^{sp_wr_exe_ready, acc_wr_exe_ready, sp_rd_exe_a_rvalid, "
           "sp_rd_exe_b_rvalid, sp_rd_exe_d_rvalid, acc_rd_exe_rvalid, " +
               std::string(td_ ? "sp_rd_exe_fa_rvalid, sp_rd_exe_fb_rvalid, " : "") +
               "dec_resp_ready}");
  {
    auto& i = b.instance(names::kDmaReader, "u_dma_reader");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"req_valid_i", "dma_rd_req_valid"},
               {"req_ready_o", "dma_rd_req_ready"},
               {"req_addr_i", "dma_rd_req_addr"},
               {"req_len_i", "dma_rd_req_len"},
               {"req_tag_i", "dma_rd_req_tag"},
               {"resp_valid_o", "dma_rd_resp_valid"},
               {"resp_ready_i", "dma_rd_resp_ready"},
               {"resp_tag_o", "dma_rd_resp_tag"},
               {"resp_data_o", "dma_rd_resp_data"},
               {"resp_error_o", "dma_rd_resp_error"},
               {"busy_o", "dma_rd_busy"},
               {"bytes_read_o", "dma_rd_bytes"}};
    const Conns bus = axi::connect(axi::fullSignals(), "m_axi_", "m_axi_", true, {"ar", "r"});
    i.conns.insert(i.conns.end(), bus.begin(), bus.end());
  }
  {
    auto& i = b.instance(names::kDmaWriter, "u_dma_writer");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"req_valid_i", "dma_wr_req_valid"},
               {"req_ready_o", "dma_wr_req_ready"},
               {"req_addr_i", "dma_wr_req_addr"},
               {"req_len_i", "dma_wr_req_len"},
               {"req_data_i", "dma_wr_req_data"},
               {"req_tag_i", "dma_wr_req_tag"},
               {"done_valid_o", "dma_wr_done_valid"},
               {"done_ready_i", "dma_wr_done_ready"},
               {"done_tag_o", "dma_wr_done_tag"},
               {"done_error_o", "dma_wr_done_error"},
               {"busy_o", "dma_wr_busy"},
               {"bytes_written_o", "dma_wr_bytes"}};
    const Conns bus = axi::connect(axi::fullSignals(), "m_axi_", "m_axi_", true, {"aw", "w", "b"});
    i.conns.insert(i.conns.end(), bus.begin(), bus.end());
  }
  b.blank();
}

void AcceleratorGenerator::statusAndEvents(vlog::Body& b) const {

  // ---------------------------------------------------------------- status and events
  b.comment("The DMA byte counts arrive the cycle after a transfer completes: busy covers "
            "that cycle, so counters read after a fence include every transfer.");
  b.assign(
      "busy",
      std::string(loops_ ? "lw_busy || " : "") + (conv_ ? "lc_busy || " : "") +
          "queue_busy || merge_busy || rs_busy || ld_busy || st_busy || ex_busy || dma_rd_busy || "
          "dma_wr_busy ||\n      dma_rd_bytes != '0 || dma_wr_bytes != '0");
  b.assign("busy_o", "busy");
  b.comment("SRAM accesses this cycle (performance counters SP_READS ... ACC_WRITES).");
  b.assign("sp_reads", accessSum("sp_rd_", spReads_));
  b.assign("sp_writes", accessSum("sp_wr_", scratchpadClients(p_).writes));
  b.assign("acc_reads",
           accessSum("acc_rd_", accumulatorClients().reads) + " +\n      " + rmwReads());
  b.assign("acc_writes", accessSum("acc_wr_", accumulatorClients().writes));
  b.comment("COUNTER_OP events by Gemmini's ids (docs/isa.md, Counter events).");
  const std::map<int, std::string> eventExprs = {{1, "ld_busy && !st_busy && !ex_busy"},
                                                 {2, "!ld_busy && st_busy && !ex_busy"},
                                                 {3, "!ld_busy && !st_busy && ex_busy"},
                                                 {4, "ld_busy && st_busy && !ex_busy"},
                                                 {5, "ld_busy && !st_busy && ex_busy"},
                                                 {6, "!ld_busy && st_busy && ex_busy"},
                                                 {7, "ld_busy && st_busy && ex_busy"},
                                                 {8, "ld_dma_wait"},
                                                 {9, "ld_busy"},
                                                 {11, "st_dma_wait"},
                                                 {12, "st_busy"},
                                                 {13, "st_pooling"},
                                                 {18, "dma_rd_busy"},
                                                 {21, "dma_wr_busy"},
                                                 {24, "ex_beat"},
                                                 {29, "ex_bank_stall"},
                                                 {41, "rs_full"},
                                                 {42, "rs_busy"}};
  std::string concat = "{";
  for (int id = 63; id >= 0; --id) {
    auto it = eventExprs.find(id);
    concat += it == eventExprs.end() ? "1'b0" : "(" + it->second + ")";
    concat += id ? ", " : "}";
  }
  b.assign("events", concat);
}

} // namespace by::hw
