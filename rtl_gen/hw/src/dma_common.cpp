#include "dma_common.h"

namespace by::hw {

namespace {
int clog2(long long v) {
  int bits = 0;
  while ((1LL << bits) < v)
    ++bits;
  return bits;
}
} // namespace

int DmaParams::idWidth() const {
  const int ids = idSlots_ ? idSlots_ : std::max(maxInflight, maxWrites);
  return ids > 1 ? clog2(ids) : 1;
}

int DmaParams::lenWidth() const {
  return clog2(maxBytes + 1LL);
}

DmaParams dmaParams(const config::Config& config, int tagWidth) {
  DmaParams p;
  p.configName = config.name;
  p.addrWidth = 32;
  p.dataWidth = config.dma.busWidth;
  p.maxInflight = config.dma.readsInflight();
  p.maxWrites = config.dma.writesInflight();
  p.maxBurst = config.dma.maxBurst;
  p.maxBytes = config.dma.maxBytes;
  p.tagWidth = tagWidth;
  return p;
}

namespace dma {

using vlog::Type;

void declareParams(vlog::Module& m, const DmaParams& p) {
  m.param("AddrWidth", std::to_string(p.addrWidth), "AXI address bits");
  m.param("DataWidth", std::to_string(p.dataWidth), "AXI data bits, a power of two >= 32");
  m.param("IdWidth", std::to_string(p.idWidth()),
          "AXI ID bits, at least $clog2(MaxInflight) (at least 1)");
  m.param("TagWidth", std::to_string(p.tagWidth), "request tag bits");
  m.param("MaxInflight", std::to_string(p.maxInflight),
          "outstanding bursts (one AXI ID each) = request slots");
  m.param("MaxBurst", std::to_string(p.maxBurst), "beats per INCR burst, 1..256");
  m.param("MaxBytes", std::to_string(p.maxBytes),
          "bytes per request, a power of two >= DataWidth/8");
}

void clientParams(vlog::Module& m, const AccelParams& p, const std::string& dataDoc) {
  m.param("TagBits", std::to_string(p.dmaTagBits), "DMA request tag");
  m.param("LenBits", std::to_string(config::log2Exact(p.maxBytes) + 1),
          "DMA request length in bytes");
  m.param("DmaDataWidth", std::to_string(p.maxBytes * 8), dataDoc);
  m.param("AddrBits", "32", "DRAM byte address");
}

void declareLocalParams(vlog::Body& b) {
  b.localParam("BeatBytes", "DataWidth / 8", "bytes per beat");
  b.localParam("OffsetW", "$clog2(BeatBytes)", "byte offset within a beat");
  b.localParam("LenW", "$clog2(MaxBytes + 1)", "a request length, 0..MaxBytes");
  b.localParam("EndW", "LenW + 2", "offset + length + BeatBytes-1");
  b.localParam("BeatAddrW", "AddrWidth - OffsetW", "an address in beats");
  b.localParam("BufBeats", "MaxBytes / BeatBytes + 1", "beats one request can touch");
  b.localParam("BufW", "BufBeats * DataWidth", "bits of those beats");
  b.localParam("BeatW", "$clog2(BufBeats + 1)", "a beat count, 0..BufBeats");
  b.localParam("PageBeats", "4096 / BeatBytes", "beats per 4 KiB page");
  b.localParam("PageW", "$clog2(PageBeats)", "beat address bits within a page");
  b.localParam("PageCntW", "PageW + 1", "a beat count, 0..PageBeats");
  b.localParam("CountW", "$clog2(BufBeats + MaxBurst + PageBeats + 1)",
               "holds any of BufBeats, MaxBurst, PageBeats");
  b.localParam("IdxW", "MaxInflight > 1 ? $clog2(MaxInflight) : 1", "an ID-pool index");
  b.localParam("Slots", "MaxInflight", "requests in progress");
  b.localParam("SlotW", "Slots > 1 ? $clog2(Slots) : 1", "a slot index");
}

void addressChannelPorts(vlog::Module& m, const std::string& ch, const std::string& what) {
  const std::string p = "m_axi_" + ch;
  m.portGroup("AXI4 " + what + " address channel.");
  m.output(p + "valid_o", Type::bit());
  m.input(p + "ready_i", Type::bit());
  m.output(p + "id_o", Type::bits("IdWidth"), "one ID per outstanding burst");
  m.output(p + "addr_o", Type::bits("AddrWidth"), "beat aligned");
  m.output(p + "len_o", Type::bits(8), "beats - 1, at most MaxBurst-1");
  m.output(p + "size_o", Type::bits(3), "log2(BeatBytes): full-width beats");
  m.output(p + "burst_o", Type::bits(2), "INCR");
  m.output(p + "cache_o", Type::bits(4), "normal non-cacheable bufferable");
  m.output(p + "prot_o", Type::bits(3), "unprivileged, secure, data");
}

void burstSplitter(vlog::Body& b, const std::string& prefix) {
  const std::string page = prefix + "_page_left";
  const std::string beats = prefix + "_beats";
  b.logic(page, Type::bits("PageCntW"), "beats to the next 4 KiB boundary");
  b.logic(beats, Type::bits("CountW"), "beats of the next burst");
  b.logic(prefix + "_final", Type::bit(), "the next burst ends the request");
  b.assign(page, "PageCntW'(PageBeats) - {1'b0, " + prefix + "_addr[PageW-1:0]}");
  b.comb()
      .line(beats + " = CountW'(" + prefix + "_left);")
      .ifElse(beats + " > CountW'(MaxBurst)",
              [&](vlog::Stmts& s) { s.line(beats + " = CountW'(MaxBurst);"); })
      .ifElse(beats + " > CountW'(" + page + ")",
              [&](vlog::Stmts& s) { s.line(beats + " = CountW'(" + page + ");"); });
  b.assign(prefix + "_final", beats + " == CountW'(" + prefix + "_left)");
}

void requestIntake(vlog::Body& b) {
  firstIndex(b, "Slots", "!slot_busy[i]", "slot_free", "alloc_slot", "SlotW");
  b.logic("req_offset", Type::bits("OffsetW"), "start byte within the first beat");
  b.logic("req_base", Type::bits("BeatAddrW"), "beat address of the first beat");
  b.logic("req_len", Type::bits("LenW"));
  b.logic("req_end", Type::bits("EndW"));
  b.logic("req_beats", Type::bits("BeatW"), "beats touched: ceil((offset + len) / BeatBytes)");
  b.logic("req_empty", Type::bit(), "length 0: no bus traffic");
  b.assign("req_offset", "req_addr_i[OffsetW-1:0]");
  b.assign("req_base", "req_addr_i[AddrWidth-1:OffsetW]");
  b.assign("req_len", "(req_len_i > LenW'(MaxBytes)) ? LenW'(MaxBytes) : req_len_i");
  b.assign("req_end", "EndW'(req_offset) + EndW'(req_len) + EndW'(BeatBytes - 1)");
  b.assign("req_empty", "req_len == '0");
}

void eventVector(vlog::Body& b, const std::string& name, const std::string& count,
                 const std::string& fire, const std::string& index, const std::string& comment) {
  b.logic(name, Type::bits(count), comment);
  b.assign(name, count + "'(" + fire + ") << " + index);
}

void freeIdSearch(vlog::Body& b) {
  b.comment("ID pool: an ID is busy from its burst's address handshake until its last beat "
            "(reads) or its response (writes); new bursts take the lowest free ID.");
  firstIndex(b, "MaxInflight", "!id_busy[i]", "id_free", "free_id", "IdxW");
}

void addressChannelRegister(vlog::Body& b, const std::string& ch) {
  const std::string p = ch + "_";
  const std::string port = "m_axi_" + ch;
  b.logic(p + "valid_q", Type::bit());
  b.logic(p + "id_q", Type::bits("IdxW"));
  b.logic(p + "addr_q", Type::bits("BeatAddrW"), "beat address");
  b.logic(p + "len_q", Type::bits(8), "beats - 1");
  b.flops({{{p + "valid_q", p + "load | (" + p + "valid_q & ~" + port + "ready_i)", "1'b0"}}});
  b.flops({{{p + "id_q", "free_id", ""},
            {p + "addr_q", "split_addr", ""},
            {p + "len_q", "8'(split_beats - CountW'(1))", ""}},
           p + "load"});
  b.assign(port + "valid_o", p + "valid_q");
  b.assign(port + "id_o", "IdWidth'(" + p + "id_q)");
  b.assign(port + "addr_o", "{" + p + "addr_q, OffsetW'(0)}");
  b.assign(port + "len_o", p + "len_q");
  b.assign(port + "size_o", "3'(OffsetW)");
  b.assign(port + "burst_o", "2'b01");
  b.assign(port + "cache_o", "4'b0011");
  b.assign(port + "prot_o", "3'b000");
}

void roundRobin(vlog::Body& b, const std::string& cand, const std::string& last,
                const std::string& pick) {
  const std::string valid = pick + "_valid";
  const std::string slot = pick + "_slot";
  b.logic(valid, Type::bit());
  b.logic(slot, Type::bits("SlotW"));
  auto pass = [&](const std::string& extra) {
    return [=](vlog::Stmts& s) {
      s.ifElse("!" + valid + " && " + cand + "[i]" + extra,
               [&](vlog::Stmts& t) { t.line(valid + " = 1'b1;").line(slot + " = SlotW'(i);"); });
    };
  };
  b.comb()
      .line(valid + " = 1'b0;")
      .line(slot + " = '0;")
      .comment("first the slots after the last one chosen, then from slot 0")
      .forLoop("i", "Slots", pass(" && SlotW'(i) > " + last))
      .forLoop("i", "Slots", pass(""));
}

} // namespace dma
} // namespace by::hw
