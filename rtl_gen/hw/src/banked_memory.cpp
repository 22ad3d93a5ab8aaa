// The scratchpad and the accumulator: banks of behavioural SRAMs shared by named clients.
//
// Every cycle each bank grants its port(s) to the highest-priority client that asks for it
// (the order of the client lists below); a client's request is granted when its ready_o is
// high. Read data returns the next cycle. Each bank remembers the write it performed in the
// previous cycle and merges it into read data of the same row, so a read issued in the same
// cycle as a write to that row still sees the new value. The accumulator adds
// read-modify-write accumulation: an accumulating write reads the row (top priority on the
// read port), adds the new values the next cycle and writes the sum back (top priority on the
// write port).
//
// A bank's SRAM word may hold several consecutive rows (the scratchpad's rows_per_word): every
// access then addresses a word, a write stores one row of it (the other rows masked off), and
// a read returns one row to its client, or the whole word to a *wide* client (the TensorDash
// operand feeder, which wants several reduction steps per access).
#include "hw/generators.h"
#include "memory_clients.h"
#include "text_util.h"

#include <algorithm>
#include <sstream>

namespace by::hw {

using vlog::Type;

namespace {

struct MemorySpec {
  std::string name, description;
  int banks, bankRows, rowBits, bankRowBits, elems, elemWidth;
  int wordRows = 1; // rows per SRAM word (a power of two)
  bool dualPort, accumulate;
  std::vector<std::string> readClients;  // priority order
  std::vector<std::string> writeClients; // priority order
  std::vector<std::string> wideClients;  // read clients that get the whole word

  bool wide(const std::string& client) const {
    return std::find(wideClients.begin(), wideClients.end(), client) != wideClients.end();
  }
};

// Which writes of a client take the read-modify-write path. The execute client's always do
// (overwriting at write-back when not accumulating): its writes then never wait for another
// write-back, so the array's results never stall.
std::string rmwPath(const std::string& client) {
  return client == "exe" ? "1'b1" : "wr_" + client + "_accumulate_i";
}

// One memory built from its spec: ports, then each part of its body.
class BankedMemory {
public:
  explicit BankedMemory(const MemorySpec& s);
  vlog::Module build() const;

private:
  vlog::Module ports() const;
  void localParams(vlog::Body& b) const;
  void clientRows(vlog::Body& b) const;
  void arbitration(vlog::Body& b) const;
  void banks(vlog::Body& b) const;
  void readReturns(vlog::Body& b) const;
  // The SRAM address of a client's request: its bank-local row, or the word holding it.
  std::string addrOf(const std::string& c) const { return c + (words_ ? "_bword" : "_brow"); }

  MemorySpec spec_;
  bool multiBank_, words_; // several banks; SRAM words of several rows
  int bankBits_, slotBits_;
  std::vector<std::string> all_; // every client: rd_<client>, wr_<client>
};

BankedMemory::BankedMemory(const MemorySpec& s)
    : spec_(s), multiBank_(s.banks > 1), words_(s.wordRows > 1),
      bankBits_(multiBank_ ? s.bankRowBits >= 0 ? s.rowBits - s.bankRowBits : 1 : 1),
      slotBits_(config::log2Exact(s.wordRows)) {
  if (words_ && s.accumulate)
    throw std::logic_error("banked memory: read-modify-write needs one row per word");
  for (const std::string& c : s.readClients)
    all_.push_back("rd_" + c);
  for (const std::string& c : s.writeClients)
    all_.push_back("wr_" + c);
}

vlog::Module BankedMemory::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  localParams(b);
  clientRows(b);
  arbitration(b);
  banks(b);
  readReturns(b);
  return m;
}

vlog::Module BankedMemory::ports() const {
  const MemorySpec& s = spec_;
  vlog::Module m(s.name, s.description);
  m.clockAndReset();
  for (const std::string& c : s.readClients) {
    m.portGroup("Read client " + c + ": ready_o grants the request; data returns next cycle.");
    m.input("rd_" + c + "_valid_i", Type::bit());
    m.output("rd_" + c + "_ready_o", Type::bit());
    m.input("rd_" + c + "_row_i", Type::bits(s.rowBits));
    m.output("rd_" + c + "_rvalid_o", Type::bit());
    m.output("rd_" + c + "_rdata_o",
             Type::bits(s.elems * s.elemWidth * (s.wide(c) ? s.wordRows : 1)),
             s.wide(c) && s.wordRows > 1 ? "the whole word: row k of it at k*RowWidth" : "");
  }
  for (const std::string& c : s.writeClients) {
    m.portGroup("Write client " + c + ": ready_o grants the request" +
                (s.accumulate ? "; done_o pulses when it is visible to reads." : "."));
    m.input("wr_" + c + "_valid_i", Type::bit());
    m.output("wr_" + c + "_ready_o", Type::bit());
    m.input("wr_" + c + "_row_i", Type::bits(s.rowBits));
    m.input("wr_" + c + "_data_i", Type::bits(s.elems * s.elemWidth));
    m.input("wr_" + c + "_mask_i", Type::bits(s.elems), "per-element write enable");
    if (s.accumulate) {
      m.input("wr_" + c + "_accumulate_i", Type::bit(), "add to the stored values");
      m.output("wr_" + c + "_done_o", Type::bit());
    }
  }

  return m;
}

void BankedMemory::localParams(vlog::Body& b) const {
  const MemorySpec& s = spec_;
  b.localParam("Banks", num(s.banks));
  b.localParam("BankRows", num(s.bankRows));
  b.localParam("BankRowBits", num(s.bankRowBits), "row within a bank");
  b.localParam("BankBits", num(bankBits_));
  if (words_) {
    b.localParam("WordRows", num(s.wordRows), "rows per SRAM word");
    b.localParam("SlotBits", num(slotBits_), "row within a word");
    b.localParam("BankWords", "BankRows / WordRows");
    b.localParam("BankWordBits", "BankRowBits - SlotBits", "word within a bank");
  }
  b.localParam("Elems", num(s.elems));
  b.localParam("ElemWidth", num(s.elemWidth));
  b.localParam("RowWidth", "Elems*ElemWidth");
  b.blank();
}

void BankedMemory::clientRows(vlog::Body& b) const {
  const MemorySpec& s = spec_;
  // --- Per-client bank and bank-local row.
  b.comment("Bank and bank-local row of every client's request.");
  for (const std::string& c : all_) {
    b.logic(c + "_bank", Type::bits("BankBits"));
    b.assign(c + "_bank",
             multiBank_ ? c + "_row_i[" + num(s.rowBits - 1) + ":BankRowBits]" : "1'b0");
    if (!words_) {
      b.logic(c + "_brow", Type::bits("BankRowBits"));
      b.assign(c + "_brow", c + "_row_i[BankRowBits-1:0]");
      continue;
    }
    b.logic(c + "_bword", Type::bits("BankWordBits"));
    b.assign(c + "_bword", c + "_row_i[BankRowBits-1:SlotBits]");
    if (c.rfind("wr_", 0) == 0 || !s.wide(c.substr(3))) {
      b.logic(c + "_slot", Type::bits("SlotBits"));
      b.assign(c + "_slot", c + "_row_i[SlotBits-1:0]");
    } else { // a wide read returns the whole word: its row within the word does not matter
      b.logic("unused_" + c + "_slot", Type::bit());
      b.assign("unused_" + c + "_slot", "^" + c + "_row_i[SlotBits-1:0]");
    }
  }
  if (!multiBank_) {
    std::string unused;
    for (const std::string& c : all_)
      unused += (unused.empty() ? "" : ", ") + c + "_row_i[" + num(s.rowBits - 1) + "]";
    if (s.rowBits > s.bankRowBits) {
      b.logic("unused_row_msbs", Type::bit(), "one bank: row bits above the bank row");
      b.assign("unused_row_msbs", "^{" + unused + "}");
    }
  }
  b.blank();

  // --- Accumulator read-modify-write state (per bank).
  if (s.accumulate) {
    b.comment("Read-modify-write in flight, per bank: issued (row read) last cycle, written back "
              "this cycle.");
    b.logic("rmw_valid_q", Type::bits("Banks"));
    b.logicArray("rmw_row_q", Type::bits("BankRowBits"), "Banks", "", "mem2reg");
    b.logicArray("rmw_data_q", Type::bits("RowWidth"), "Banks", "values to add", "mem2reg");
    b.logicArray("rmw_mask_q", Type::bits("Elems"), "Banks", "", "mem2reg");
    b.logic("rmw_add_q", Type::bits("Banks"), "add (else overwrite) at write-back");
  }
}

void BankedMemory::arbitration(vlog::Body& b) const {
  const MemorySpec& s = spec_;
  // --- Arbitration: chains of taken ports in priority order.
  b.comment("Arbitration: *_taken_<n> are the banks whose port is claimed by the first n "
            "clients in priority order.");
  auto chain = [&](const std::string& port, const std::string& start,
                   const std::vector<std::pair<std::string, std::string>>& reqs) {
    // reqs: (client, request expression)
    std::string prev = port + "_taken_0";
    b.logic(prev, Type::bits("Banks"));
    b.assign(prev, start);
    for (size_t i = 0; i < reqs.size(); ++i) {
      const std::string& c = reqs[i].first;
      b.logic(c + "_grant_" + port, Type::bit());
      b.assign(c + "_grant_" + port, reqs[i].second + " && !" + prev + "[" + c + "_bank]");
      if (i + 1 == reqs.size())
        break; // nothing after the last client needs to know what it took
      const std::string next = port + "_taken_" + num(static_cast<int>(i + 1));
      b.logic(next, Type::bits("Banks"));
      b.assign(next, prev + " | (" + c + "_grant_" + port + " ? Banks'(1) << " + c + "_bank : '0)");
      prev = next;
    }
  };
  std::vector<std::string> grants; // per client: its grant expression
  if (!s.dualPort) {
    // One port: the execute writes first (results cannot wait), then the execute reads,
    // then the remaining writes, then the remaining reads.
    std::vector<std::pair<std::string, std::string>> order;
    for (const std::string& c : s.writeClients)
      if (c == "exe")
        order.push_back({"wr_" + c, "wr_" + c + "_valid_i"});
    for (const std::string& c : s.readClients)
      if (c.rfind("exe", 0) == 0)
        order.push_back({"rd_" + c, "rd_" + c + "_valid_i"});
    for (const std::string& c : s.writeClients)
      if (c != "exe")
        order.push_back({"wr_" + c, "wr_" + c + "_valid_i"});
    for (const std::string& c : s.readClients)
      if (c.rfind("exe", 0) != 0)
        order.push_back({"rd_" + c, "rd_" + c + "_valid_i"});
    chain("port", "'0", order);
    for (const std::string& c : all_)
      b.assign(c + "_ready_o", c + "_grant_port");
  } else {
    std::vector<std::pair<std::string, std::string>> readOrder, writeOrder;
    if (s.accumulate)
      for (const std::string& c : s.writeClients)
        readOrder.push_back({"wr_" + c, "wr_" + c + "_valid_i && " + rmwPath(c)});
    for (const std::string& c : s.readClients)
      readOrder.push_back({"rd_" + c, "rd_" + c + "_valid_i"});
    for (const std::string& c : s.writeClients)
      writeOrder.push_back(
          {"wr_" + c, "wr_" + c + "_valid_i" +
                          (s.accumulate ? " && !wr_" + c + "_accumulate_i" : std::string())});
    chain("rport", "'0", readOrder);
    chain("wport", s.accumulate ? "rmw_valid_q" : "'0", writeOrder);
    for (const std::string& c : s.readClients)
      b.assign("rd_" + c + "_ready_o", "rd_" + c + "_grant_rport");
    for (const std::string& c : s.writeClients)
      b.assign("wr_" + c + "_ready_o", s.accumulate
                                           ? "wr_" + c + "_grant_rport || wr_" + c + "_grant_wport"
                                           : "wr_" + c + "_grant_wport");
  }
  b.blank();
}

void BankedMemory::banks(vlog::Body& b) const {
  const MemorySpec& s = spec_;
  // --- Banks.
  b.comment("Bank SRAM ports, the last write (for read forwarding) and the read in flight.");
  // With words_ of several rows every SRAM signal below is a word; rows sit side by side.
  if (words_) {
    b.localParam("WordWidth", "WordRows*RowWidth");
    b.localParam("WordElems", "WordRows*Elems");
  }
  const std::string rw = words_ ? "WordWidth" : "RowWidth";
  const std::string elems = words_ ? "WordElems" : "Elems";
  const std::string addrBits = words_ ? "BankWordBits" : "BankRowBits";
  b.logicArray("bank_rdata", Type::bits(rw), "Banks", "SRAM read data", "mem2reg");
  b.logicArray("bank_merged", Type::bits(rw), "Banks", "read data with the last write merged",
               "mem2reg");
  // A bank reads at most once per cycle, so the row a one-row client asked for is picked once
  // per bank, not once per client out of every bank's word (td8: about 110 k transistors).
  if (words_)
    b.logicArray("bank_row", Type::bits("RowWidth"), "Banks",
                 "the row of the word a one-row client read", "mem2reg");
  vlog::Body& bank = b.genFor("bk", "Banks", "gen_bank");
  bank.logic("re", Type::bit());
  bank.logic("raddr", Type::bits(addrBits));
  bank.logic("we", Type::bit());
  bank.logic("waddr", Type::bits(addrBits));
  bank.logic("wdata", Type::bits(rw));
  bank.logic("wmask", Type::bits(elems));
  bank.logic("last_we_q", Type::bit(), "a write happened in the previous cycle");
  bank.logic("last_waddr_q", Type::bits(addrBits));
  bank.logic("last_wdata_q", Type::bits(rw));
  bank.logic("last_wmask_q", Type::bits(elems));
  bank.logic("raddr_q", Type::bits(addrBits), "address of the read in flight");
  if (words_) {
    bank.logic("rslot", Type::bits("SlotBits"), "row of the word a one-row read wants");
    bank.logic("rslot_q", Type::bits("SlotBits"));
  }
  bank.logic("rdata_raw", Type::bits(rw));
  bank.logic("merged", Type::bits(rw));
  bank.assign("rdata_raw", "bank_rdata[bk]");
  bank.assign("bank_merged[bk]", "merged");
  if (s.accumulate) {
    bank.comment("This bank's read-modify-write in flight (local copies keep constant selects "
                 "out of always_comb, which Icarus does not support).");
    bank.logic("rmw_valid", Type::bit());
    bank.logic("rmw_row", Type::bits("BankRowBits"));
    bank.logic("rmw_data", Type::bits(rw));
    bank.logic("rmw_mask", Type::bits("Elems"));
    bank.logic("rmw_add", Type::bit());
    bank.assign("rmw_valid", "rmw_valid_q[bk]");
    bank.assign("rmw_row", "rmw_row_q[bk]");
    bank.assign("rmw_data", "rmw_data_q[bk]");
    bank.assign("rmw_mask", "rmw_mask_q[bk]");
    bank.assign("rmw_add", "rmw_add_q[bk]");
  }
  // Port multiplexers: at most one grant per port and bank.
  {
    vlog::Stmts& st = bank.comb();
    st.line("re = 1'b0;").line("raddr = '0;").line("we = 1'b0;").line("waddr = '0;");
    st.line("wdata = '0;").line("wmask = '0;");
    if (words_)
      st.line("rslot = '0;");
    if (s.accumulate) {
      st.comment("Read-modify-write: write back old + new (wrapping) where the mask is set.");
      st.ifElse("rmw_valid", [&](vlog::Stmts& t) {
        t.line("we = 1'b1;").line("waddr = rmw_row;").line("wmask = rmw_mask;");
        t.forLoop("e", "Elems", [](vlog::Stmts& u) {
          u.line("wdata[e*ElemWidth +: ElemWidth] = rmw_data[e*ElemWidth +: ElemWidth] +");
          u.line("    (rmw_add ? merged[e*ElemWidth +: ElemWidth] : '0);");
        });
      });
    }
    const std::string rgrant = s.dualPort ? "_grant_rport" : "_grant_port";
    const std::string wgrant = s.dualPort ? "_grant_wport" : "_grant_port";
    for (const std::string& c : s.readClients)
      st.ifElse("rd_" + c + rgrant + " && rd_" + c + "_bank == BankBits'(bk)", [&](vlog::Stmts& t) {
        t.line("re = 1'b1;").line("raddr = " + addrOf("rd_" + c) + ";");
        if (words_ && !s.wide(c))
          t.line("rslot = rd_" + c + "_slot;");
      });
    for (const std::string& c : s.writeClients) {
      if (s.accumulate)
        st.ifElse("wr_" + c + "_grant_rport && wr_" + c + "_bank == BankBits'(bk)",
                  [&](vlog::Stmts& t) { t.line("re = 1'b1;").line("raddr = wr_" + c + "_brow;"); });
      st.ifElse("wr_" + c + wgrant + " && wr_" + c + "_bank == BankBits'(bk)", [&](vlog::Stmts& t) {
        t.line("we = 1'b1;").line("waddr = " + addrOf("wr_" + c) + ";");
        if (words_) // the row in every slot of the word, written only in its own
          t.line("wdata = {WordRows{wr_" + c + "_data_i}};")
              .line("wmask = WordElems'(wr_" + c + "_mask_i) << (32'(wr_" + c + "_slot) * Elems);");
        else
          t.line("wdata = wr_" + c + "_data_i;").line("wmask = wr_" + c + "_mask_i;");
      });
    }
  }
  {
    auto& sram = bank.instance(s.dualPort ? names::kSramDp : names::kSramSp, "u_sram");
    sram.params = {{"Depth", words_ ? "BankWords" : "BankRows"},
                   {"Width", rw},
                   {"MaskWidth", elems},
                   {"AddrWidth", addrBits}};
    if (s.dualPort)
      sram.conns = {{"clk_i", "clk_i"},   {"re_i", "re"},
                    {"raddr_i", "raddr"}, {"rdata_o", "bank_rdata[bk]"},
                    {"we_i", "we"},       {"waddr_i", "waddr"},
                    {"wdata_i", "wdata"}, {"wmask_i", "wmask"}};
    else
      sram.conns = {{"clk_i", "clk_i"},
                    {"req_i", "re || we"},
                    {"we_i", "we"},
                    {"addr_i", "we ? waddr : raddr"},
                    {"wdata_i", "wdata"},
                    {"wmask_i", "wmask"},
                    {"rdata_o", "bank_rdata[bk]"}};
  }
  bank.flops({{{"last_we_q", "we", "1'b0"}}});
  bank.flops({{{"last_waddr_q", "waddr", ""},
               {"last_wdata_q", "wdata", ""},
               {"last_wmask_q", "wmask", ""}}});
  bank.flops({{{"raddr_q", "raddr", ""}}, "re"});
  if (words_) {
    bank.flops({{{"rslot_q", "rslot", ""}}, "re"});
    bank.assign("bank_row[bk]", "merged[32'(rslot_q)*RowWidth +: RowWidth]");
  }
  {
    vlog::Stmts& st = bank.comb();
    st.line("merged = rdata_raw;");
    st.forLoop("e", elems, [](vlog::Stmts& t) {
      t.ifElse("last_we_q && last_waddr_q == raddr_q && last_wmask_q[e]", [](vlog::Stmts& u) {
        u.line("merged[e*ElemWidth +: ElemWidth] = last_wdata_q[e*ElemWidth +: ElemWidth];");
      });
    });
  }
  b.blank();
}

void BankedMemory::readReturns(vlog::Body& b) const {
  const MemorySpec& s = spec_;
  // --- Read returns.
  b.comment("Read data returns to each client the cycle after its grant.");
  for (const std::string& c : s.readClients) {
    const std::string g = s.dualPort ? "rd_" + c + "_grant_rport" : "rd_" + c + "_grant_port";
    b.logic("rd_" + c + "_bank_q", Type::bits("BankBits"));
    b.logic("rd_" + c + "_rvalid_q", Type::bit());
    b.flops({{{"rd_" + c + "_rvalid_q", g, "1'b0"}}});
    b.assign("rd_" + c + "_rvalid_o", "rd_" + c + "_rvalid_q");
    b.flops({{{"rd_" + c + "_bank_q", "rd_" + c + "_bank", ""}}, g});
    b.assign("rd_" + c + "_rdata_o",
             (!words_ || s.wide(c) ? "bank_merged[" : "bank_row[") + ("rd_" + c + "_bank_q]"));
  }
  if (s.accumulate) {
    b.comment("Accumulating writes: capture the values to add; write-back next cycle.");
    vlog::SeqItem& q = b.sequential();
    q.reset.line("rmw_valid_q <= '0;");
    q.clocked.line("rmw_valid_q <= '0;");
    for (const std::string& c : s.writeClients)
      q.clocked.ifElse("wr_" + c + "_grant_rport",
                       [&](vlog::Stmts& t) { t.line("rmw_valid_q[wr_" + c + "_bank] <= 1'b1;"); });
    vlog::SeqItem& d = b.clocked();
    for (const std::string& c : s.writeClients)
      d.clocked.ifElse("wr_" + c + "_grant_rport", [&](vlog::Stmts& t) {
        t.line("rmw_row_q[wr_" + c + "_bank] <= wr_" + c + "_brow;");
        t.line("rmw_data_q[wr_" + c + "_bank] <= wr_" + c + "_data_i;");
        t.line("rmw_mask_q[wr_" + c + "_bank] <= wr_" + c + "_mask_i;");
        t.line("rmw_add_q[wr_" + c + "_bank] <= wr_" + c + "_accumulate_i;");
      });
    b.comment("A write is visible to reads from the cycle after its grant (read-modify-writes "
              "through the forwarding path).");
    for (const std::string& c : s.writeClients) {
      b.logic("wr_" + c + "_done_q", Type::bit());
      b.flops({{{"wr_" + c + "_done_q", "wr_" + c + "_ready_o && wr_" + c + "_valid_i", "1'b0"}}});
      b.assign("wr_" + c + "_done_o", "wr_" + c + "_done_q");
    }
  }
}

vlog::Module buildBankedMemory(const MemorySpec& s) {
  return BankedMemory(s).build();
}

/// Boveda's on-chip form gives the loader a scratchpad read port (DECOMPRESS).
bool onChip(const AccelParams& p) {
  return p.config.boveda.enabled && p.config.boveda.onChip;
}

} // namespace

vlog::Module ScratchpadGenerator::build() const {
  MemorySpec s;
  s.name = names::kScratchpad;
  s.description = "Scratchpad: " + num(p_.spBanks) + " bank(s) of " + num(p_.spBankRows) +
                  " rows of " + num(p_.spElems) + " " + num(p_.iw) + "-bit elements (DIM*lanes), " +
                  (p_.spDualPort ? "one read and one write port" : "one port") + " per bank" +
                  (p_.spWordRows > 1 ? ", " + num(p_.spWordRows) + " rows per SRAM word" : "") +
                  ". Clients in priority order: execute write, execute reads (A, B, D" +
                  (p_.config.tensordash.enabled ? ", TensorDash feeder A and B words" : "") +
                  "), load write, store read" +
                  (onChip(p_) ? ", load read (Boveda DECOMPRESS)." : ".");
  s.banks = p_.spBanks;
  s.bankRows = p_.spBankRows;
  s.rowBits = p_.spRowBits;
  s.bankRowBits = p_.spBankRowBits;
  s.elems = p_.spElems;
  s.elemWidth = p_.iw;
  s.dualPort = p_.spDualPort;
  s.accumulate = false;
  const MemoryClients clients = scratchpadClients(p_);
  s.readClients = clients.reads;
  s.wideClients = clients.wide;
  s.writeClients = clients.writes;
  s.wordRows = p_.spWordRows;
  return buildBankedMemory(s);
}

vlog::Module AccumulatorGenerator::build() const {
  MemorySpec s;
  s.name = names::kAccumulator;
  s.description = "Accumulator: " + num(p_.accBanks) + " bank(s) of " + num(p_.accBankRows) +
                  " rows of DIM " + num(p_.aw) +
                  "-bit elements, one read and one write port per bank, with read-modify-write "
                  "accumulation (wrapping). Read port priority: read-modify-writes (all execute "
                  "writes, accumulating load writes), execute read, store read; write port: "
                  "write-backs, then plain load writes.";
  s.banks = p_.accBanks;
  s.bankRows = p_.accBankRows;
  s.rowBits = p_.accRowBits;
  s.bankRowBits = p_.accBankRowBits;
  s.elems = p_.dim;
  s.elemWidth = p_.aw;
  s.dualPort = true;
  s.accumulate = true;
  s.readClients = accumulatorClients().reads;
  s.writeClients = accumulatorClients().writes;
  return buildBankedMemory(s);
}

} // namespace by::hw
