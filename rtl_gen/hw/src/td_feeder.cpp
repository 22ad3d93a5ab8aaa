// The TensorDash operand feeder (docs/tensordash.md, "Operand feeder"): it reads the operands
// of OS compute operations out of the scratchpad ahead of time and offers them to the front
// end's staging window as reduction steps, up to lookahead+1 steps per cycle.
//
// Jobs. The execute controller hands over every OS compute operation as a job, in program
// order, when it accepts the operation (two or more operations before it computes). A job owns
// a slot of a small ring until the last of its steps has left the window; the slot's A tile
// (by_td_tile_buffer) holds its A operand, read as columns (step t = column t).
//
// Fills. The A filler reads each job's A rows into its tile, the B filler each job's B rows
// (one lane-packed row per step, zero rows past the operand) into a FIFO in step order. Both
// read whole scratchpad words (memory.scratchpad.rows_per_word rows) through their own wide
// read client, so a word of W rows brings W steps in one access: this is what lets the window
// advance more than one step per cycle without starving.
//
// Offers. The window holds the steps of the oldest job (the head, the operation the controller
// computes) and of the jobs after it that continue its accumulation, in order; a beat can
// complete several of them (done_o), which the controller then completes one per cycle. A job
// that starts a new pass (a flip, or after an accumulation ended) waits until the window is
// empty of the old pass (it may follow this cycle's last beat of that pass). Each offered step is
// the pair (A column, B row), or (B row, A column) when the operation schedules B (td_side), which
// puts B's steps on the rows' staging windows.
//
// Cost: a tile of DIM rows of A per job, tdFifoRows rows of B, and the read-port multiplexers.
#include "td_feeder.h"

#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {
// Element `idx` of a packed vector of `width`-bit fields.
std::string at(const std::string& vec, const std::string& idx, int width) {
  if (width == 1)
    return vec + "[" + idx + "]";
  return vec + "[32'(" + idx + ")*" + num(width) + " +: " + num(width) + "]";
}
std::string minOf(const std::string& a, const std::string& b) {
  return "((" + a + ") < (" + b + ") ? (" + a + ") : (" + b + "))";
}
} // namespace

vlog::Module TdFeederGenerator::build() const {
  const AccelParams& p = p_;
  const int dp = p.array.tdDepth, jobs = p.tdJobs, jb = p.tdJobBits, db = p.dimBits;
  const int words = p.spWordRows, rw = p.spElems * p.iw, eb = p.spElemBits, rb = p.spRowBits;
  const int fifo = p.tdFifoRows;
  const int ib = std::max(1, config::log2Exact(p.dim)); // a tile row or column
  const int cb = bitsFor(dp);                           // 0..Depth (the front end's counts)
  const int xb = db + 2;                                // step counts plus a window
  const int fcb = bitsFor(fifo), fib = bitsFor(fifo - 1);
  const int slotBits = config::log2Exact(words);
  const std::string x = num(xb) + "'";

  vlog::Module m(names::kTdFeeder,
                 "TensorDash operand feeder: " + num(jobs) + " jobs with an A tile each, " +
                     num(fifo) + " B rows, scratchpad words of " + num(words) + " rows, up to " +
                     num(dp) + " reduction steps offered per cycle.");
  m.clockAndReset();
  m.portGroup("Jobs: OS compute operations in program order (operands as in the op payload: "
              "A = the COMPUTE's rs1, B = its rs2).");
  m.input("job_valid_i", Type::bit());
  m.output("job_ready_o", Type::bit(), "a slot is free");
  m.input("job_a_zero_i", Type::bit(), "A is GARBAGE (zeros)");
  m.input("job_a_row_i", Type::bits(rb));
  m.input("job_a_rows_i", Type::bits(db));
  m.input("job_a_cols_i", Type::bits(eb));
  m.input("job_a_stride_i", Type::bits(16));
  m.input("job_b_zero_i", Type::bit(), "B is GARBAGE (zeros)");
  m.input("job_b_row_i", Type::bits(rb));
  m.input("job_b_rows_i", Type::bits(db), "lane-packed rows: one per step");
  m.input("job_b_cols_i", Type::bits(eb));
  m.input("job_steps_i", Type::bits(db), "reduction steps: max(ceil(A cols / lanes), B rows)");
  m.input("job_new_pass_i", Type::bit(), "the job does not continue the previous one's pass");
  m.input("job_side_i", Type::bit(), "B is the scheduled operand");
  auto reader = [&](const std::string& n, const std::string& what) {
    m.portGroup("Scratchpad wide read client: " + what + " (a word of " + num(words) +
                " rows returns the cycle after the grant).");
    m.output(n + "_valid_o", Type::bit());
    m.input(n + "_ready_i", Type::bit());
    m.output(n + "_row_o", Type::bits(rb));
    m.input(n + "_rdata_i", Type::bits(words * rw));
  };
  reader("spa", "A rows into the tiles");
  reader("spb", "B rows into the FIFO");
  m.portGroup("Steps offered to by_td_frontend (rows' operand in step_a_o, columns' in step_b_o).");
  m.output("step_avail_o", Type::bits(cb));
  m.output("step_a_o", Type::bits(dp * rw));
  m.output("step_b_o", Type::bits(dp * rw));
  m.input("step_take_i", Type::bits(cb));
  m.input("beat_i", Type::bit(), "a front-end beat goes this cycle");
  m.input("retire_i", Type::bits(cb), "... and retires this many steps");
  m.portGroup("Status.");
  m.output("done_o", Type::bits(bitsFor(std::min(dp, jobs))),
           "jobs whose last step this beat retires (the oldest ones)");
  m.output("short_o", Type::bit(), "the window is not full while its pass has steps outside it");
  m.output("busy_o", Type::bit());

  vlog::Body& b = m.body();
  b.localParam("Jobs", num(jobs));
  b.localParam("Depth", num(dp), "window slots: lookahead + 1");
  if (words > 1)
    b.localParam("WordRows", num(words), "scratchpad rows per SRAM word");
  b.localParam("ElemWidth", num(p.iw));
  b.localParam("RowWidth", num(rw), "a scratchpad row: DIM groups of Lanes elements");
  b.localParam("FifoRows", num(fifo));
  b.blank();

  // ================================================================ job slots
  b.comment("Job slots: the ring [head_q, head_q + count_q) in program order.");
  b.logic("alloc_q", Type::bits(jb), "the next slot to allocate");
  b.logic("head_q", Type::bits(jb), "the oldest job");
  b.logic("count_q", Type::bits(jb + 1));
  b.logic("alloc", Type::bit());
  b.assign("job_ready_o", "count_q != " + num(jb + 1) + "'(Jobs)");
  b.assign("alloc", "job_valid_i && job_ready_o");
  struct SlotField {
    std::string name;
    int width;
    std::string input;
  };
  const std::vector<SlotField> fields = {
      {"a_zero", 1, "job_a_zero_i"},      {"a_row", rb, "job_a_row_i"},
      {"a_rows", db, "job_a_rows_i"},     {"a_cols", eb, "job_a_cols_i"},
      {"a_stride", 16, "job_a_stride_i"}, {"b_zero", 1, "job_b_zero_i"},
      {"b_row", rb, "job_b_row_i"},       {"b_rows", db, "job_b_rows_i"},
      {"b_cols", eb, "job_b_cols_i"},     {"steps", db, "job_steps_i"},
      {"new_pass", 1, "job_new_pass_i"},  {"side", 1, "job_side_i"}};
  b.comment("Per slot, packed (slot j at j*width): the job and its progress (a_ready: its A "
            "tile is complete; taken: steps in the window or gone; left: steps gone).");
  for (const SlotField& f : fields)
    b.logic(f.name + "_v", Type::bits(jobs * f.width));
  b.logic("a_ready_v", Type::bits(jobs));
  b.logic("taken_v", Type::bits(jobs * db));
  b.logic("left_v", Type::bits(jobs * db));
  b.blank();

  // Signals the slot registers below update from (declared here, driven further down).
  const int reach = std::min(dp, jobs); // jobs one offer can reach: the head and the next ones
  b.logic("have_head", Type::bit());
  b.assign("have_head", "count_q != '0");
  for (int j = 0; j < reach; ++j)
    b.logic("take" + num(j), Type::bits(cb),
            "steps the window takes from the job " + num(j) + " after the head");
  b.logic("done", Type::bits(bitsFor(reach)), "jobs this beat completes");
  for (int j = 0; j < reach; ++j) {
    b.logic("before" + num(j), Type::bits(xb), "steps in the window ahead of job " + num(j));
    b.logic("gone" + num(j), Type::bits(db), "steps of job " + num(j) + " this beat retires");
  }
  b.logic("a_set_zero", Type::bit(), "the A filler skips a GARBAGE A (tile stays zero)");
  b.logic("a_set_fill", Type::bit(), "the last rows of a tile are written this cycle");
  b.logic("afill_q", Type::bits(jb));
  b.logic("fa_ret_tile_q", Type::bits(jb));

  vlog::Body& slot = b.genFor("j", "Jobs", "gen_job");
  slot.logic("here", Type::bit(), "this slot is allocated now");
  slot.assign("here", "alloc && 32'(alloc_q) == j");
  std::vector<vlog::Flop> loads;
  for (const SlotField& f : fields) {
    slot.logic(f.name + "_q", Type::bits(f.width));
    loads.push_back({f.name + "_q", f.input, ""});
    slot.assign(at(f.name + "_v", "j", f.width), f.name + "_q");
  }
  slot.flops({loads, "here"});
  slot.logic("a_ready_q", Type::bit());
  slot.logic("taken_q", Type::bits(db));
  slot.logic("left_q", Type::bits(db));
  slot.logic("rel", Type::bits(jb), "its place after the head");
  slot.assign("rel", num(jb) + "'(j) - head_q");
  std::string takes, gones;
  for (int j = 0; j < reach; ++j) {
    takes +=
        " + (rel == " + num(jb) + "'d" + num(j) + " ? " + num(db) + "'(take" + num(j) + ") : '0)";
    gones += " + (rel == " + num(jb) + "'d" + num(j) + " ? gone" + num(j) + " : '0)";
  }
  {
    vlog::SeqItem& s = slot.sequential();
    s.reset.line("a_ready_q <= 1'b0;").line("taken_q <= '0;").line("left_q <= '0;");
    s.clocked.ifElse(
        "here",
        [](vlog::Stmts& t) {
          t.line("a_ready_q <= 1'b0;").line("taken_q <= '0;").line("left_q <= '0;");
        },
        [&](vlog::Stmts& t) {
          t.ifElse("(a_set_zero && 32'(afill_q) == j) || (a_set_fill && 32'(fa_ret_tile_q) == j)",
                   [](vlog::Stmts& u) { u.line("a_ready_q <= 1'b1;"); });
          t.line("taken_q <= taken_q" + takes + ";");
          t.line("left_q <= left_q" + gones + ";");
        });
  }
  slot.assign(at("a_ready_v", "j", 1), "a_ready_q");
  slot.assign(at("taken_v", "j", db), "taken_q");
  slot.assign(at("left_v", "j", db), "left_q");
  b.blank();

  // The fields of the head, the next job, and the jobs the fillers work on.
  auto field = [&](const std::string& name, const std::string& idx) {
    for (const SlotField& f : fields)
      if (f.name == name)
        return at(name + "_v", idx, f.width);
    if (name == "a_ready")
      return at("a_ready_v", idx, 1);
    return at(name + "_v", idx, db); // taken, left
  };

  // ================================================================ A filler
  b.comment("A filler: the tiles of the allocated jobs in order, a word per request (the rows "
            "of the tile it holds: all of them for a_stride 1, else one).");
  b.logic("apend_q", Type::bits(jb + 1), "jobs whose A reads are not all issued");
  b.logic("fa_i_q", Type::bits(db), "next tile row to request");
  b.logic("a_active", Type::bit());
  b.logic("a_zero", Type::bit());
  b.logic("a_row", Type::bits(rb), "scratchpad row of tile row fa_i_q");
  b.logic("a_cnt", Type::bits(db), "tile rows the request brings");
  b.logic("a_go", Type::bit(), "a request is granted (or a GARBAGE A is skipped)");
  b.logic("a_done", Type::bit(), "... and it is the job's last");
  b.assign("a_active", "apend_q != '0");
  b.assign("a_zero", field("a_zero", "afill_q"));
  b.assign("a_row", num(rb) + "'(" + num(rb + 16) + "'(" + field("a_row", "afill_q") + ") + " +
                        num(rb + 16) + "'(fa_i_q) * " + num(rb + 16) + "'(" +
                        field("a_stride", "afill_q") + "))");
  {
    const std::string left = num(db) + "'(" + field("a_rows", "afill_q") + " - fa_i_q)";
    if (words == 1) {
      b.assign("a_cnt", num(db) + "'d1");
      b.logic("unused_a_left", Type::bits(db));
      b.assign("unused_a_left", left);
    } else {
      b.logic("a_slot", Type::bits(slotBits), "row of the word");
      b.assign("a_slot", "a_row[" + num(slotBits - 1) + ":0]");
      b.assign("a_cnt", field("a_stride", "afill_q") + " != 16'd1 ? " + num(db) + "'d1 :\n      " +
                            minOf(num(db) + "'(" + num(words) + " - 32'(a_slot))", left));
    }
  }
  b.assign("spa_valid_o", "a_active && !a_zero");
  b.assign("spa_row_o", "a_row");
  b.assign("a_go", "a_active && (a_zero || spa_ready_i)");
  b.assign("a_done", "a_go && (a_zero || fa_i_q + a_cnt == " + field("a_rows", "afill_q") + ")");
  b.assign("a_set_zero", "a_go && a_zero");
  b.logic("fa_ret_valid_q", Type::bit(), "a word of A arrives this cycle");
  b.logic("fa_ret_first_q", Type::bits(ib), "tile row of its first row");
  b.logic("fa_ret_count_q", Type::bits(db));
  b.logic("fa_ret_last_q", Type::bit(), "the tile is complete with it");
  if (words > 1)
    b.logic("fa_ret_slot_q", Type::bits(slotBits), "row of the word where the tile rows begin");
  b.assign("a_set_fill", "fa_ret_valid_q && fa_ret_last_q");
  b.blank();

  // ================================================================ B filler
  b.comment("B filler: every job's steps in order, one B row per step (row b_row + t while "
            "t < b_rows, else zeros), pushed into the FIFO the cycle after the request.");
  b.logic("bfill_q", Type::bits(jb));
  b.logic("bpend_q", Type::bits(jb + 1), "jobs whose B rows are not all requested");
  b.logic("fb_t_q", Type::bits(db), "next step of the job to request");
  b.logic("b_active", Type::bit());
  b.logic("b_real", Type::bit(), "the step's B row is read (else zero)");
  b.logic("b_row", Type::bits(rb));
  b.logic("b_want", Type::bits(db), "steps one request could bring");
  b.logic("b_space", Type::bits(fcb), "FIFO rows neither used nor arriving");
  b.logic("b_cnt", Type::bits(db), "steps this request brings");
  b.logic("b_go", Type::bit());
  b.logic("b_done", Type::bit());
  b.logic("fb_ret_valid_q", Type::bit(), "rows for the FIFO arrive this cycle");
  b.logic("fb_ret_zero_q", Type::bit(), "... and they are zero rows");
  b.logic("fb_ret_count_q", Type::bits(db));
  b.logic("fb_ret_job_q", Type::bits(jb));
  b.logic("fifo_head_q", Type::bits(fib));
  b.logic("fifo_count_q", Type::bits(fcb));
  b.assign("b_active", "bpend_q != '0");
  b.assign("b_real",
           "!" + field("b_zero", "bfill_q") + " && fb_t_q < " + field("b_rows", "bfill_q"));
  b.assign("b_row", num(rb) + "'(" + field("b_row", "bfill_q") + " + " + num(rb) + "'(fb_t_q))");
  {
    const std::string realLeft = num(db) + "'(" + field("b_rows", "bfill_q") + " - fb_t_q)";
    const std::string zeroLeft = num(db) + "'(" + field("steps", "bfill_q") + " - fb_t_q)";
    if (words == 1) {
      b.assign("b_want", num(db) + "'d1");
      b.logic("unused_b_left", Type::bits(2 * db));
      b.assign("unused_b_left", "{" + realLeft + ", " + zeroLeft + "}");
    } else {
      b.logic("b_slot", Type::bits(slotBits));
      b.assign("b_slot", "b_row[" + num(slotBits - 1) + ":0]");
      b.assign("b_want", "b_real ? " +
                             minOf(num(db) + "'(" + num(words) + " - 32'(b_slot))", realLeft) +
                             " :\n      " + minOf(num(db) + "'(WordRows)", zeroLeft));
    }
  }
  b.assign("b_space", num(fcb) + "'(FifoRows) - fifo_count_q - (fb_ret_valid_q ? " + num(fcb) +
                          "'(fb_ret_count_q) : '0)");
  b.assign("b_cnt", num(fcb) + "'(b_want) > b_space ? " + num(db) + "'(b_space) : b_want");
  b.assign("spb_valid_o", "b_active && b_real && b_space != '0");
  b.assign("spb_row_o", "b_row");
  b.assign("b_go", "b_active && b_space != '0 && (!b_real || spb_ready_i)");
  b.assign("b_done", "b_go && fb_t_q + b_cnt == " + field("steps", "bfill_q"));
  if (words > 1)
    b.logic("fb_ret_slot_q", Type::bits(slotBits));
  b.blank();

  // ---------------------------------------------------------------- words to rows
  b.comment("Arriving words, aligned so that row k is the k-th row wanted, with the columns "
            "past the operand's cols zeroed.");
  b.logic("a_word", Type::bits(words * rw));
  b.logic("b_word", Type::bits(words * rw));
  b.logic("a_keep", Type::bits(rw), "elements below the arriving tile's A cols");
  b.logic("b_keep", Type::bits(rw));
  if (words > 1) {
    b.assign("a_word", "spa_rdata_i >> (32'(fa_ret_slot_q) * RowWidth)");
    b.assign("b_word", "spb_rdata_i >> (32'(fb_ret_slot_q) * RowWidth)");
  } else {
    b.assign("a_word", "spa_rdata_i");
    b.assign("b_word", "spb_rdata_i");
  }
  {
    vlog::Body& e = b.genFor("e", num(p.spElems), "gen_keep");
    e.assign("a_keep[e*ElemWidth +: ElemWidth]",
             "{ElemWidth{32'(e) < 32'(" + field("a_cols", "fa_ret_tile_q") + ")}}");
    e.assign("b_keep[e*ElemWidth +: ElemWidth]",
             "{ElemWidth{32'(e) < 32'(" + field("b_cols", "fb_ret_job_q") + ")}}");
  }
  b.logic("a_rows_in", Type::bits(words * rw), "the tile rows written");
  b.logic("push_rows", Type::bits(words * rw), "the B rows pushed");
  {
    vlog::Body& w = b.genFor("k", num(words), "gen_word_row");
    w.assign("a_rows_in[k*RowWidth +: RowWidth]", "a_word[k*RowWidth +: RowWidth] & a_keep");
    w.assign("push_rows[k*RowWidth +: RowWidth]",
             "fb_ret_zero_q ? '0 : b_word[k*RowWidth +: RowWidth] & b_keep");
  }
  b.blank();

  // ================================================================ B FIFO
  b.comment("B FIFO: rows of the steps not yet taken, in step order (a ring of FifoRows).");
  b.logicArray("fifo_q", Type::bits("RowWidth"), "FifoRows", "", "mem2reg");
  b.logic("fifo_tail", Type::bits(fib));
  b.logic("fifo_push", Type::bits(db), "rows pushed this cycle");
  b.assign("fifo_push", "fb_ret_valid_q ? fb_ret_count_q : '0");
  auto ringAdd = [&](const std::string& a, const std::string& bExpr) {
    // (a + b) mod FifoRows for a < FifoRows and b <= FifoRows
    const std::string s = "(32'(" + a + ") + 32'(" + bExpr + "))";
    return num(fib) + "'(" + s + " >= FifoRows ? " + s + " - FifoRows : " + s + ")";
  };
  b.assign("fifo_tail", ringAdd("fifo_head_q", "fifo_count_q"));
  {
    vlog::Body& e = b.genFor("e", "FifoRows", "gen_fifo");
    e.logic("off", Type::bits(32), "place of entry e after the tail");
    e.assign("off", "32'(e) >= 32'(fifo_tail) ? 32'(e) - 32'(fifo_tail) : 32'(e) + FifoRows - "
                    "32'(fifo_tail)");
    e.clocked().clocked.ifElse("off < 32'(fifo_push)", [](vlog::Stmts& s) {
      s.line("fifo_q[e] <= push_rows[off*RowWidth +: RowWidth];");
    });
  }
  b.blank();

  // ================================================================ offers
  // The offer walks the jobs from the head on (at most Depth of them can share an offer).
  auto job = [&](int j) { return j == 0 ? std::string("head_q") : "job" + num(j); };
  b.comment("Offers: the untaken steps of the head job and of the jobs after it, in order. A "
            "job needs its tile complete, each step its B row queued; a job that starts a new "
            "pass is offered only as the head, or as the next job once the head leaves with "
            "this beat (the window is then empty of the old pass). The window never holds the "
            "last steps of two jobs, so that a beat completes at most one operation.");
  for (int j = 1; j < reach; ++j) {
    b.logic(job(j), Type::bits(jb), "the job " + num(j) + " after the head");
    b.assign(job(j), "head_q + " + num(jb) + "'d" + num(j));
  }
  std::string cum;
  for (int j = 0; j < reach; ++j) {
    const std::string u = "untaken" + num(j), ok = "offer_ok" + num(j), c = "cum" + num(j);
    b.logic(u, Type::bits(db), "steps of job " + num(j) + " not taken yet");
    b.logic(ok, Type::bit(), "its steps may be offered");
    b.logic(c, Type::bits(xb), "untaken steps of the jobs up to it");
    b.assign(u, "count_q > " + num(jb + 1) + "'d" + num(j) + " ? " + num(db) + "'(" +
                    field("steps", job(j)) + " - " + field("taken", job(j)) + ") : '0");
    // a new pass may load once every job before it leaves the window with this beat
    const std::string passOk = j == 0 ? "1'b1"
                                      : "(!" + field("new_pass", job(j)) + " || (beat_i && " + x +
                                            "(retire_i) >= before" + num(j) + "))";
    b.assign(ok, "count_q > " + num(jb + 1) + "'d" + num(j) + " && " + field("a_ready", job(j)) +
                     " && " + passOk);
    cum = "cum" + num(j);
    b.assign(cum, (j == 0 ? "" : "cum" + num(j - 1) + " + ") + x + "(" + u + ")");
  }
  b.logic("slot_ok", Type::bits(dp), "offer slot k may be taken");
  b.logic("rd_tile", Type::bits(dp * jb));
  b.logic("rd_col", Type::bits(dp * ib));
  b.logic("a_cols_out", Type::bits(dp * rw), "A column of each offered step");
  for (int k = 0; k < dp; ++k) {
    const std::string kk = num(xb) + "'d" + num(k);
    std::string jobSel = "'0", colSel = "'0", okSel = "1'b0";
    for (int j = reach - 1; j >= 0; --j) {
      const std::string in =
          (j ? "cum" + num(j - 1) + " <= " + kk + " && " : std::string()) + kk + " < cum" + num(j);
      const std::string step = x + "(" + field("taken", job(j)) + ") + " + kk +
                               (j ? " - cum" + num(j - 1) : std::string());
      jobSel = "(" + in + ") ? " + job(j) + " : " + jobSel;
      colSel = "(" + in + ") ? " + num(ib) + "'(" + step + ") : " + colSel;
      okSel = "(" + in + ") ? offer_ok" + num(j) + " : " + okSel;
    }
    b.assign("rd_tile[" + num(k * jb) + " +: " + num(jb) + "]", jobSel);
    b.assign("rd_col[" + num(k * ib) + " +: " + num(ib) + "]", colSel);
    b.assign("slot_ok[" + num(k) + "]", "(" + okSel + ") && " + num(k) + " < 32'(fifo_count_q)");
  }
  b.logic("avail", Type::bits(cb), "leading offer slots that may be taken");
  {
    std::string avail = num(cb) + "'d" + num(dp);
    for (int k = dp - 1; k >= 0; --k)
      avail = "!slot_ok[" + num(k) + "] ? " + num(cb) + "'d" + num(k) + " : " + avail;
    b.assign("avail", avail);
  }
  b.assign("step_avail_o", "avail");
  b.logic("side", Type::bit(), "the pass of the offer schedules B");
  {
    // The side of the job the first offered step comes from (all of an offer is one pass).
    std::string side = field("side", job(reach - 1));
    for (int j = reach - 2; j >= 0; --j)
      side = "untaken" + num(j) + " != '0 ? " + field("side", job(j)) + " :\n      " + side;
    b.assign("side", side);
  }
  {
    vlog::Body& k = b.genFor("k", "Depth", "gen_offer");
    k.comment("Offer slot k: the A column from its job's tile, the B row from the FIFO.");
    k.logic("b_step", Type::bits("RowWidth"));
    k.logic("fidx", Type::bits(fib));
    k.assign("fidx", ringAdd("fifo_head_q", "k"));
    k.assign("b_step", "fifo_q[fidx]");
    k.assign("step_a_o[k*RowWidth +: RowWidth]",
             "side ? b_step : a_cols_out[k*RowWidth +: RowWidth]");
    k.assign("step_b_o[k*RowWidth +: RowWidth]",
             "side ? a_cols_out[k*RowWidth +: RowWidth] : b_step");
  }
  b.comment("The steps taken go to the jobs in order.");
  for (int j = 0; j < reach; ++j) {
    const std::string before = j ? x + "(cum" + num(j - 1) + ")" : num(xb) + "'d0";
    b.assign("take" + num(j),
             x + "(step_take_i) <= " + before + " ? '0 : " + num(cb) + "'(" +
                 minOf(x + "(step_take_i) - " + before, x + "(untaken" + num(j) + ")") + ")");
  }
  {
    auto& t = b.instance(names::kTdTileBuffer, "u_tiles");
    t.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"wr_valid_i", "fa_ret_valid_q"},
               {"wr_tile_i", "fa_ret_tile_q"},
               {"wr_first_i", "fa_ret_first_q"},
               {"wr_count_i", "fa_ret_count_q"},
               {"wr_data_i", "a_rows_in"},
               {"clr_valid_i", "alloc"},
               {"clr_tile_i", "alloc_q"},
               {"rd_tile_i", "rd_tile"},
               {"rd_col_i", "rd_col"},
               {"rd_data_o", "a_cols_out"}};
  }
  b.blank();

  // ================================================================ retirement
  b.comment("Retirement: a beat retires steps from the window's head, job after job; a job is "
            "done when all its steps are gone.");
  {
    std::string doneSum;
    for (int j = 0; j < reach; ++j) {
      const std::string need = "need" + num(j);
      b.logic(need, Type::bits(xb), "steps of job " + num(j) + " not gone yet");
      b.assign(need, "count_q > " + num(jb + 1) + "'d" + num(j) + " ? " + x + "(" +
                         field("steps", job(j)) + ") - " + x + "(" + field("left", job(j)) +
                         ") : '0");
      b.assign("before" + num(j),
               j ? "before" + num(j - 1) + " + need" + num(j - 1) : num(xb) + "'d0");
      const std::string past = x + "(retire_i) - before" + num(j);
      b.assign("gone" + num(j), "!beat_i || " + x + "(retire_i) <= before" + num(j) +
                                    " ? '0 : " + num(db) + "'(" + minOf(past, need) + ")");
      b.logic("fin" + num(j), Type::bit(), "job " + num(j) + " completes with this beat");
      b.assign("fin" + num(j), "beat_i && " + need + " != '0 && " + x + "(retire_i) >= before" +
                                   num(j) + " + " + need);
      doneSum += (j ? " + " : "") + num(bitsFor(reach)) + "'(fin" + num(j) + ")";
    }
    b.assign("done", doneSum);
  }
  b.assign("done_o", "done");
  b.logic("in_window", Type::bits(xb), "steps taken and not gone");
  b.logic("pass_outside", Type::bit(), "the pass has steps not taken yet");
  {
    std::string inWin, outside, cont = "1'b1";
    for (int j = 0; j < reach; ++j) {
      const std::string have = "count_q > " + num(jb + 1) + "'d" + num(j);
      inWin += (j ? " +\n      " : "") + std::string("(") + have + " ? " + x + "(" +
               field("taken", job(j)) + ") - " + x + "(" + field("left", job(j)) + ") : '0)";
      if (j)
        cont += " && !" + field("new_pass", job(j));
      outside += (j ? " ||\n      " : "") + std::string("(") + have + " && " + cont +
                 " && untaken" + num(j) + " != '0)";
    }
    b.assign("in_window", inWin);
    b.assign("pass_outside", outside);
  }
  b.assign("short_o", "have_head && in_window < " + x + "(Depth) && pass_outside");
  b.assign("busy_o", "have_head || fa_ret_valid_q || fb_ret_valid_q");
  b.blank();

  // ================================================================ state
  const std::string inc = num(jb + 1) + "'(";
  vlog::SeqItem& q = b.sequential();
  q.reset.line("alloc_q <= '0;").line("head_q <= '0;").line("count_q <= '0;");
  q.reset.line("afill_q <= '0;").line("apend_q <= '0;").line("fa_i_q <= '0;");
  q.reset.line("fa_ret_valid_q <= 1'b0;");
  q.reset.line("bfill_q <= '0;").line("bpend_q <= '0;").line("fb_t_q <= '0;");
  q.reset.line("fb_ret_valid_q <= 1'b0;").line("fifo_head_q <= '0;").line("fifo_count_q <= '0;");
  vlog::Stmts& c = q.clocked;
  c.ifElse("alloc", [](vlog::Stmts& s) { s.line("alloc_q <= alloc_q + 1'b1;"); });
  c.line("head_q <= head_q + " + num(jb) + "'(done);");
  c.line("count_q <= count_q + " + inc + "alloc) - " + inc + "done);");
  c.line("apend_q <= apend_q + " + inc + "alloc) - " + inc + "a_done);");
  c.line("bpend_q <= bpend_q + " + inc + "alloc) - " + inc + "b_done);");
  c.ifElse("a_done", [](vlog::Stmts& s) { s.line("afill_q <= afill_q + 1'b1;"); });
  c.ifElse("a_go", [](vlog::Stmts& s) { s.line("fa_i_q <= a_done ? '0 : fa_i_q + a_cnt;"); });
  c.line("fa_ret_valid_q <= a_go && !a_zero;");
  c.ifElse("b_done", [](vlog::Stmts& s) { s.line("bfill_q <= bfill_q + 1'b1;"); });
  c.ifElse("b_go", [](vlog::Stmts& s) { s.line("fb_t_q <= b_done ? '0 : fb_t_q + b_cnt;"); });
  c.line("fb_ret_valid_q <= b_go;");
  c.line("fifo_head_q <= " + ringAdd("fifo_head_q", "step_take_i") + ";");
  c.line("fifo_count_q <= fifo_count_q + " + num(fcb) + "'(fifo_push) - " + num(fcb) +
         "'(step_take_i);");
  vlog::SeqItem& dq = b.clocked();
  dq.clocked.ifElse("a_go", [&](vlog::Stmts& s) {
    s.line("fa_ret_tile_q <= afill_q;")
        .line("fa_ret_first_q <= " + num(ib) + "'(fa_i_q);")
        .line("fa_ret_count_q <= a_cnt;")
        .line("fa_ret_last_q <= a_done;");
    if (words > 1)
      s.line("fa_ret_slot_q <= a_slot;");
  });
  dq.clocked.ifElse("b_go", [&](vlog::Stmts& s) {
    s.line("fb_ret_zero_q <= !b_real;").line("fb_ret_count_q <= b_cnt;");
    s.line("fb_ret_job_q <= bfill_q;");
    if (words > 1)
      s.line("fb_ret_slot_q <= b_slot;");
  });
  return m;
}

} // namespace by::hw
