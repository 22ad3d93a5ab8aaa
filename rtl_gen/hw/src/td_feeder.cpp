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

#include "op_layouts.h"
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

void TdFeederGenerator::initSizes() {
  // reach: jobs one offer can reach, the head and the next ones
  const AccelParams& p = p_;
  dp_ = p.array.tdDepth;
  jobs_ = p.tdJobs;
  jb_ = p.tdJobBits;
  db_ = p.dimBits;
  words_ = p.spWordRows;
  rw_ = p.spElems * p.iw;
  eb_ = p.spElemBits;
  rb_ = p.spRowBits;
  fifo_ = p.tdFifoRows;
  ib_ = std::max(1, config::log2Exact(p.dim));
  cb_ = bitsFor(dp_);
  xb_ = db_ + 2;
  fcb_ = bitsFor(fifo_);
  fib_ = bitsFor(fifo_ - 1);
  slotBits_ = config::log2Exact(words_);
  x_ = num(xb_) + "'";
  fields_ = {{"a_zero", 1, "job_a_zero_i"},      {"a_row", rb_, "job_a_row_i"},
             {"a_rows", db_, "job_a_rows_i"},    {"a_cols", eb_, "job_a_cols_i"},
             {"a_stride", 16, "job_a_stride_i"}, {"b_zero", 1, "job_b_zero_i"},
             {"b_row", rb_, "job_b_row_i"},      {"b_rows", db_, "job_b_rows_i"},
             {"b_cols", eb_, "job_b_cols_i"},    {"steps", db_, "job_steps_i"},
             {"new_pass", 1, "job_new_pass_i"}};
  if (p.config.tensordash.scheduleB)
    fields_.push_back({"side", 1, "job_side_i"});
  if (hasAStep(p))
    fields_.push_back({"a_step", ib_, "job_a_step_i"});
  reach_ = std::min(dp_, jobs_);
}

vlog::Module TdFeederGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  jobSlots(b);
  aFiller(b);
  bFiller(b);
  bFifo(b);
  offers(b);
  retirement(b);
  state(b);
  return m;
}

vlog::Module TdFeederGenerator::ports() const {

  vlog::Module m(names::kTdFeeder,
                 "TensorDash operand feeder: " + num(jobs_) + " jobs with an A tile each, " +
                     num(fifo_) + " B rows, scratchpad words of " + num(words_) + " rows, up to " +
                     num(dp_) + " reduction steps offered per cycle.");
  m.clockAndReset();
  m.portGroup("Jobs: OS compute operations in program order (operands as in the op payload: "
              "A = the COMPUTE's rs1, B = its rs2).");
  m.input("job_valid_i", Type::bit());
  m.output("job_ready_o", Type::bit(), "a slot is free");
  m.input("job_a_zero_i", Type::bit(), "A is GARBAGE (zeros)");
  m.input("job_a_row_i", Type::bits(rb_));
  m.input("job_a_rows_i", Type::bits(db_));
  m.input("job_a_cols_i", Type::bits(eb_));
  m.input("job_a_stride_i", Type::bits(16));
  m.input("job_b_zero_i", Type::bit(), "B is GARBAGE (zeros)");
  m.input("job_b_row_i", Type::bits(rb_));
  m.input("job_b_rows_i", Type::bits(db_), "lane-packed rows: one per step");
  m.input("job_b_cols_i", Type::bits(eb_));
  m.input("job_steps_i", Type::bits(db_), "reduction steps: max(ceil(A cols / lanes), B rows)");
  m.input("job_new_pass_i", Type::bit(), "the job does not continue the previous one's pass");
  if (p_.config.tensordash.scheduleB)
    m.input("job_side_i", Type::bit(), "B is the scheduled operand");
  if (hasAStep(p_))
    m.input("job_a_step_i", Type::bits(ib_),
            "A's first step: its columns start a_step lane groups into its rows (a depthwise "
            "loop's compute)");
  auto reader = [&](const std::string& n, const std::string& what) {
    m.portGroup("Scratchpad wide read client: " + what + " (a word of " + num(words_) +
                " rows returns the cycle after the grant).");
    m.output(n + "_valid_o", Type::bit());
    m.input(n + "_ready_i", Type::bit());
    m.output(n + "_row_o", Type::bits(rb_));
    m.input(n + "_rdata_i", Type::bits(words_ * rw_));
  };
  reader("spa", "A rows into the tiles");
  reader("spb", "B rows into the FIFO");
  m.portGroup("Steps offered to by_td_frontend (rows' operand in step_a_o, columns' in step_b_o).");
  m.output("step_avail_o", Type::bits(cb_));
  m.output("step_a_o", Type::bits(dp_ * rw_));
  m.output("step_b_o", Type::bits(dp_ * rw_));
  m.input("step_take_i", Type::bits(cb_));
  m.input("beat_i", Type::bit(), "a front-end beat goes this cycle");
  m.input("retire_i", Type::bits(cb_), "... and retires this many steps");
  m.portGroup("Status.");
  m.output("done_o", Type::bits(bitsFor(std::min(dp_, jobs_))),
           "jobs whose last step this beat retires (the oldest ones)");
  m.output("short_o", Type::bit(), "the window is not full while its pass has steps outside it");
  m.output("busy_o", Type::bit());

  return m;
}

void TdFeederGenerator::jobSlots(vlog::Body& b) const {
  const AccelParams& p = p_;
  b.localParam("Jobs", num(jobs_));
  b.localParam("Depth", num(dp_), "window slots: lookahead + 1");
  if (words_ > 1)
    b.localParam("WordRows", num(words_), "scratchpad rows per SRAM word");
  b.localParam("ElemWidth", num(p.iw));
  b.localParam("RowWidth", num(rw_), "a scratchpad row: DIM groups of Lanes elements");
  b.localParam("FifoRows", num(fifo_));
  b.blank();

  // ================================================================ job slots
  b.comment("Job slots: the ring [head_q, head_q + count_q) in program order.");
  b.logic("alloc_q", Type::bits(jb_), "the next slot to allocate");
  b.logic("head_q", Type::bits(jb_), "the oldest job");
  b.logic("count_q", Type::bits(jb_ + 1));
  b.logic("alloc", Type::bit());
  b.assign("job_ready_o", "count_q != " + num(jb_ + 1) + "'(Jobs)");
  b.assign("alloc", "job_valid_i && job_ready_o");

  b.comment("Per slot, packed (slot j at j*width): the job and its progress (a_ready: its A "
            "tile is complete; taken: steps in the window or gone; left: steps gone).");
  for (const SlotField& f : fields_)
    b.logic(f.name + "_v", Type::bits(jobs_ * f.width));
  b.logic("a_ready_v", Type::bits(jobs_));
  b.logic("taken_v", Type::bits(jobs_ * db_));
  b.logic("left_v", Type::bits(jobs_ * db_));
  b.blank();

  // Signals the slot registers below update from (declared here, driven further down).
  b.logic("have_head", Type::bit());
  b.assign("have_head", "count_q != '0");
  for (int j = 0; j < reach_; ++j)
    b.logic("take" + num(j), Type::bits(cb_),
            "steps the window takes from the job " + num(j) + " after the head");
  b.logic("done", Type::bits(bitsFor(reach_)), "jobs this beat completes");
  for (int j = 0; j < reach_; ++j) {
    b.logic("before" + num(j), Type::bits(xb_), "steps in the window ahead of job " + num(j));
    b.logic("gone" + num(j), Type::bits(db_), "steps of job " + num(j) + " this beat retires");
  }
  b.logic("a_set_zero", Type::bit(), "the A filler skips a GARBAGE A (tile stays zero)");
  b.logic("a_set_fill", Type::bit(), "the last rows of a tile are written this cycle");
  b.logic("afill_q", Type::bits(jb_));
  b.logic("fa_ret_tile_q", Type::bits(jb_));

  vlog::Body& slot = b.genFor("j", "Jobs", "gen_job");
  slot.logic("here", Type::bit(), "this slot is allocated now");
  slot.assign("here", "alloc && 32'(alloc_q) == j");
  std::vector<vlog::Flop> loads;
  for (const SlotField& f : fields_) {
    slot.logic(f.name + "_q", Type::bits(f.width));
    loads.push_back({f.name + "_q", f.input, ""});
    slot.assign(at(f.name + "_v", "j", f.width), f.name + "_q");
  }
  slot.flops({loads, "here"});
  slot.logic("a_ready_q", Type::bit());
  slot.logic("taken_q", Type::bits(db_));
  slot.logic("left_q", Type::bits(db_));
  slot.logic("rel", Type::bits(jb_), "its place after the head");
  slot.assign("rel", num(jb_) + "'(j) - head_q");
  std::string takes, gones;
  for (int j = 0; j < reach_; ++j) {
    takes +=
        " + (rel == " + num(jb_) + "'d" + num(j) + " ? " + num(db_) + "'(take" + num(j) + ") : '0)";
    gones += " + (rel == " + num(jb_) + "'d" + num(j) + " ? gone" + num(j) + " : '0)";
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
  slot.assign(at("taken_v", "j", db_), "taken_q");
  slot.assign(at("left_v", "j", db_), "left_q");
  b.blank();

  // The fields of the head, the next job, and the jobs the fillers work on.
}

void TdFeederGenerator::aFiller(vlog::Body& b) const {

  // ================================================================ A filler
  b.comment("A filler: the tiles of the allocated jobs in order, a word per request (the rows "
            "of the tile it holds: all of them for a_stride 1, else one).");
  b.logic("apend_q", Type::bits(jb_ + 1), "jobs whose A reads are not all issued");
  b.logic("fa_i_q", Type::bits(db_), "next tile row to request");
  b.logic("a_active", Type::bit());
  b.logic("a_zero", Type::bit());
  b.logic("a_row", Type::bits(rb_), "scratchpad row of tile row fa_i_q");
  b.logic("a_cnt", Type::bits(db_), "tile rows the request brings");
  b.logic("a_go", Type::bit(), "a request is granted (or a GARBAGE A is skipped)");
  b.logic("a_done", Type::bit(), "... and it is the job's last");
  b.assign("a_active", "apend_q != '0");
  b.assign("a_zero", field("a_zero", "afill_q"));
  b.assign("a_row", num(rb_) + "'(" + num(rb_ + 16) + "'(" + field("a_row", "afill_q") + ") + " +
                        num(rb_ + 16) + "'(fa_i_q) * " + num(rb_ + 16) + "'(" +
                        field("a_stride", "afill_q") + "))");
  {
    const std::string left = num(db_) + "'(" + field("a_rows", "afill_q") + " - fa_i_q)";
    if (words_ == 1) {
      b.assign("a_cnt", num(db_) + "'d1");
      b.logic("unused_a_left", Type::bits(db_));
      b.assign("unused_a_left", left);
    } else {
      b.logic("a_slot", Type::bits(slotBits_), "row of the word");
      b.assign("a_slot", "a_row[" + num(slotBits_ - 1) + ":0]");
      b.assign("a_cnt", field("a_stride", "afill_q") + " != 16'd1 ? " + num(db_) + "'d1 :\n      " +
                            minOf(num(db_) + "'(" + num(words_) + " - 32'(a_slot))", left));
    }
  }
  b.assign("spa_valid_o", "a_active && !a_zero");
  b.assign("spa_row_o", "a_row");
  b.assign("a_go", "a_active && (a_zero || spa_ready_i)");
  b.assign("a_done", "a_go && (a_zero || fa_i_q + a_cnt == " + field("a_rows", "afill_q") + ")");
  b.assign("a_set_zero", "a_go && a_zero");
  b.logic("fa_ret_valid_q", Type::bit(), "a word of A arrives this cycle");
  b.logic("fa_ret_first_q", Type::bits(ib_), "tile row of its first row");
  b.logic("fa_ret_count_q", Type::bits(db_));
  b.logic("fa_ret_last_q", Type::bit(), "the tile is complete with it");
  if (words_ > 1)
    b.logic("fa_ret_slot_q", Type::bits(slotBits_), "row of the word where the tile rows begin");
  b.assign("a_set_fill", "fa_ret_valid_q && fa_ret_last_q");
  b.blank();
}

void TdFeederGenerator::bFiller(vlog::Body& b) const {
  const AccelParams& p = p_;
  // ================================================================ B filler
  b.comment("B filler: every job's steps in order, one B row per step (row b_row + t while "
            "t < b_rows, else zeros), pushed into the FIFO the cycle after the request.");
  b.logic("bfill_q", Type::bits(jb_));
  b.logic("bpend_q", Type::bits(jb_ + 1), "jobs whose B rows are not all requested");
  b.logic("fb_t_q", Type::bits(db_), "next step of the job to request");
  b.logic("b_active", Type::bit());
  b.logic("b_real", Type::bit(), "the step's B row is read (else zero)");
  b.logic("b_row", Type::bits(rb_));
  b.logic("b_want", Type::bits(db_), "steps one request could bring");
  b.logic("b_space", Type::bits(fcb_), "FIFO rows neither used nor arriving");
  b.logic("b_cnt", Type::bits(db_), "steps this request brings");
  b.logic("b_go", Type::bit());
  b.logic("b_done", Type::bit());
  b.logic("fb_ret_valid_q", Type::bit(), "rows for the FIFO arrive this cycle");
  b.logic("fb_ret_zero_q", Type::bit(), "... and they are zero rows");
  b.logic("fb_ret_count_q", Type::bits(db_));
  b.logic("fb_ret_job_q", Type::bits(jb_));
  b.logic("fifo_head_q", Type::bits(fib_));
  b.logic("fifo_count_q", Type::bits(fcb_));
  b.assign("b_active", "bpend_q != '0");
  b.assign("b_real",
           "!" + field("b_zero", "bfill_q") + " && fb_t_q < " + field("b_rows", "bfill_q"));
  b.assign("b_row", num(rb_) + "'(" + field("b_row", "bfill_q") + " + " + num(rb_) + "'(fb_t_q))");
  {
    const std::string realLeft = num(db_) + "'(" + field("b_rows", "bfill_q") + " - fb_t_q)";
    const std::string zeroLeft = num(db_) + "'(" + field("steps", "bfill_q") + " - fb_t_q)";
    if (words_ == 1) {
      b.assign("b_want", num(db_) + "'d1");
      b.logic("unused_b_left", Type::bits(2 * db_));
      b.assign("unused_b_left", "{" + realLeft + ", " + zeroLeft + "}");
    } else {
      b.logic("b_slot", Type::bits(slotBits_));
      b.assign("b_slot", "b_row[" + num(slotBits_ - 1) + ":0]");
      b.assign("b_want", "b_real ? " +
                             minOf(num(db_) + "'(" + num(words_) + " - 32'(b_slot))", realLeft) +
                             " :\n      " + minOf(num(db_) + "'(WordRows)", zeroLeft));
    }
  }
  b.assign("b_space", num(fcb_) + "'(FifoRows) - fifo_count_q - (fb_ret_valid_q ? " + num(fcb_) +
                          "'(fb_ret_count_q) : '0)");
  b.assign("b_cnt", num(fcb_) + "'(b_want) > b_space ? " + num(db_) + "'(b_space) : b_want");
  b.assign("spb_valid_o", "b_active && b_real && b_space != '0");
  b.assign("spb_row_o", "b_row");
  b.assign("b_go", "b_active && b_space != '0 && (!b_real || spb_ready_i)");
  b.assign("b_done", "b_go && fb_t_q + b_cnt == " + field("steps", "bfill_q"));
  if (words_ > 1)
    b.logic("fb_ret_slot_q", Type::bits(slotBits_));
  b.blank();

  // ---------------------------------------------------------------- words to rows
  b.comment("Arriving words, aligned so that row k is the k-th row wanted, with the columns "
            "past the operand's cols zeroed.");
  b.logic("a_word", Type::bits(words_ * rw_));
  b.logic("b_word", Type::bits(words_ * rw_));
  b.logic("a_keep", Type::bits(rw_), "elements below the arriving tile's A cols");
  b.logic("b_keep", Type::bits(rw_));
  if (words_ > 1) {
    b.assign("a_word", "spa_rdata_i >> (32'(fa_ret_slot_q) * RowWidth)");
    b.assign("b_word", "spb_rdata_i >> (32'(fb_ret_slot_q) * RowWidth)");
  } else {
    b.assign("a_word", "spa_rdata_i");
    b.assign("b_word", "spb_rdata_i");
  }
  {
    vlog::Body& e = b.genFor("e", num(p.spElems), "gen_keep");
    // (the columns of a job with a first step start a_step lane groups in)
    const std::string aEnd = "32'(" + field("a_cols", "fa_ret_tile_q") + ")" +
                             (hasAStep(p_) ? " + (32'(" + field("a_step", "fa_ret_tile_q") +
                                                 ") << " + num(config::log2Exact(p_.lanes)) + ")"
                                           : std::string());
    e.assign("a_keep[e*ElemWidth +: ElemWidth]", "{ElemWidth{32'(e) < " + aEnd + "}}");
    e.assign("b_keep[e*ElemWidth +: ElemWidth]",
             "{ElemWidth{32'(e) < 32'(" + field("b_cols", "fb_ret_job_q") + ")}}");
  }
  b.logic("a_rows_in", Type::bits(words_ * rw_), "the tile rows written");
  b.logic("push_rows", Type::bits(words_ * rw_), "the B rows pushed");
  {
    vlog::Body& w = b.genFor("k", num(words_), "gen_word_row");
    w.assign("a_rows_in[k*RowWidth +: RowWidth]", "a_word[k*RowWidth +: RowWidth] & a_keep");
    w.assign("push_rows[k*RowWidth +: RowWidth]",
             "fb_ret_zero_q ? '0 : b_word[k*RowWidth +: RowWidth] & b_keep");
  }
  b.blank();
}

void TdFeederGenerator::bFifo(vlog::Body& b) const {

  // ================================================================ B FIFO
  b.comment("B FIFO: rows of the steps not yet taken, in step order (a ring of FifoRows).");
  b.logicArray("fifo_q", Type::bits("RowWidth"), "FifoRows", "", "mem2reg");
  b.logic("fifo_tail", Type::bits(fib_));
  b.logic("fifo_push", Type::bits(db_), "rows pushed this cycle");
  b.assign("fifo_push", "fb_ret_valid_q ? fb_ret_count_q : '0");
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
}

void TdFeederGenerator::offers(vlog::Body& b) const {

  // ================================================================ offers
  // The offer walks the jobs from the head on (at most Depth of them can share an offer).
  b.comment("Offers: the untaken steps of the head job and of the jobs after it, in order. A "
            "job needs its tile complete, each step its B row queued; a job that starts a new "
            "pass is offered only as the head, or as the next job once the head leaves with "
            "this beat (the window is then empty of the old pass). The window never holds the "
            "last steps of two jobs, so that a beat completes at most one operation.");
  for (int j = 1; j < reach_; ++j) {
    b.logic(job(j), Type::bits(jb_), "the job " + num(j) + " after the head");
    b.assign(job(j), "head_q + " + num(jb_) + "'d" + num(j));
  }
  std::string cum;
  for (int j = 0; j < reach_; ++j) {
    const std::string u = "untaken" + num(j), ok = "offer_ok" + num(j), c = "cum" + num(j);
    b.logic(u, Type::bits(db_), "steps of job " + num(j) + " not taken yet");
    b.logic(ok, Type::bit(), "its steps may be offered");
    b.logic(c, Type::bits(xb_), "untaken steps of the jobs up to it");
    b.assign(u, "count_q > " + num(jb_ + 1) + "'d" + num(j) + " ? " + num(db_) + "'(" +
                    field("steps", job(j)) + " - " + field("taken", job(j)) + ") : '0");
    // a new pass may load once every job before it leaves the window with this beat
    const std::string passOk = j == 0 ? "1'b1"
                                      : "(!" + field("new_pass", job(j)) + " || (beat_i && " + x_ +
                                            "(retire_i) >= before" + num(j) + "))";
    b.assign(ok, "count_q > " + num(jb_ + 1) + "'d" + num(j) + " && " + field("a_ready", job(j)) +
                     " && " + passOk);
    cum = "cum" + num(j);
    b.assign(cum, (j == 0 ? "" : "cum" + num(j - 1) + " + ") + x_ + "(" + u + ")");
  }
  b.logic("slot_ok", Type::bits(dp_), "offer slot k may be taken");
  b.logic("rd_tile", Type::bits(dp_ * jb_));
  b.logic("rd_col", Type::bits(dp_ * ib_));
  b.logic("a_cols_out", Type::bits(dp_ * rw_), "A column of each offered step");
  for (int k = 0; k < dp_; ++k) {
    const std::string kk = num(xb_) + "'d" + num(k);
    std::string jobSel = "'0", colSel = "'0", okSel = "1'b0";
    for (int j = reach_ - 1; j >= 0; --j) {
      const std::string in =
          (j ? "cum" + num(j - 1) + " <= " + kk + " && " : std::string()) + kk + " < cum" + num(j);
      const std::string step =
          x_ + "(" + field("taken", job(j)) + ") + " + kk +
          (j ? " - cum" + num(j - 1) : std::string()) +
          (hasAStep(p_) ? " + " + x_ + "(" + field("a_step", job(j)) + ")" : std::string());
      jobSel = "(" + in + ") ? " + job(j) + " : " + jobSel;
      colSel = "(" + in + ") ? " + num(ib_) + "'(" + step + ") : " + colSel;
      okSel = "(" + in + ") ? offer_ok" + num(j) + " : " + okSel;
    }
    b.assign("rd_tile[" + num(k * jb_) + " +: " + num(jb_) + "]", jobSel);
    b.assign("rd_col[" + num(k * ib_) + " +: " + num(ib_) + "]", colSel);
    b.assign("slot_ok[" + num(k) + "]", "(" + okSel + ") && " + num(k) + " < 32'(fifo_count_q)");
  }
  b.logic("avail", Type::bits(cb_), "leading offer slots that may be taken");
  {
    std::string avail = num(cb_) + "'d" + num(dp_);
    for (int k = dp_ - 1; k >= 0; --k)
      avail = "!slot_ok[" + num(k) + "] ? " + num(cb_) + "'d" + num(k) + " : " + avail;
    b.assign("avail", avail);
  }
  b.assign("step_avail_o", "avail");
  const bool sideB = p_.config.tensordash.scheduleB;
  if (sideB) {
    b.logic("side", Type::bit(), "the pass of the offer schedules B");
    // The side of the job the first offered step comes from (all of an offer is one pass).
    std::string side = field("side", job(reach_ - 1));
    for (int j = reach_ - 2; j >= 0; --j)
      side = "untaken" + num(j) + " != '0 ? " + field("side", job(j)) + " :\n      " + side;
    b.assign("side", side);
  }
  {
    vlog::Body& k = b.genFor("k", "Depth", "gen_offer");
    k.comment("Offer slot k: the A column from its job's tile, the B row from the FIFO.");
    k.logic("b_step", Type::bits("RowWidth"));
    k.logic("fidx", Type::bits(fib_));
    k.assign("fidx", ringAdd("fifo_head_q", "k"));
    k.assign("b_step", "fifo_q[fidx]");
    const std::string aCol = "a_cols_out[k*RowWidth +: RowWidth]";
    k.assign("step_a_o[k*RowWidth +: RowWidth]", sideB ? "side ? b_step : " + aCol : aCol);
    k.assign("step_b_o[k*RowWidth +: RowWidth]", sideB ? "side ? " + aCol + " : b_step" : "b_step");
  }
  b.comment("The steps taken go to the jobs in order.");
  for (int j = 0; j < reach_; ++j) {
    const std::string before = j ? x_ + "(cum" + num(j - 1) + ")" : num(xb_) + "'d0";
    b.assign("take" + num(j),
             x_ + "(step_take_i) <= " + before + " ? '0 : " + num(cb_) + "'(" +
                 minOf(x_ + "(step_take_i) - " + before, x_ + "(untaken" + num(j) + ")") + ")");
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
}

void TdFeederGenerator::retirement(vlog::Body& b) const {

  // ================================================================ retirement
  b.comment("Retirement: a beat retires steps from the window's head, job after job; a job is "
            "done when all its steps are gone.");
  {
    std::string doneSum;
    for (int j = 0; j < reach_; ++j) {
      const std::string need = "need" + num(j);
      b.logic(need, Type::bits(xb_), "steps of job " + num(j) + " not gone yet");
      b.assign(need, "count_q > " + num(jb_ + 1) + "'d" + num(j) + " ? " + x_ + "(" +
                         field("steps", job(j)) + ") - " + x_ + "(" + field("left", job(j)) +
                         ") : '0");
      b.assign("before" + num(j),
               j ? "before" + num(j - 1) + " + need" + num(j - 1) : num(xb_) + "'d0");
      const std::string past = x_ + "(retire_i) - before" + num(j);
      b.assign("gone" + num(j), "!beat_i || " + x_ + "(retire_i) <= before" + num(j) +
                                    " ? '0 : " + num(db_) + "'(" + minOf(past, need) + ")");
      b.logic("fin" + num(j), Type::bit(), "job " + num(j) + " completes with this beat");
      b.assign("fin" + num(j), "beat_i && " + need + " != '0 && " + x_ + "(retire_i) >= before" +
                                   num(j) + " + " + need);
      doneSum += (j ? " + " : "") + num(bitsFor(reach_)) + "'(fin" + num(j) + ")";
    }
    b.assign("done", doneSum);
  }
  b.assign("done_o", "done");
  b.logic("in_window", Type::bits(xb_), "steps taken and not gone");
  b.logic("pass_outside", Type::bit(), "the pass has steps not taken yet");
  {
    std::string inWin, outside, cont = "1'b1";
    for (int j = 0; j < reach_; ++j) {
      const std::string have = "count_q > " + num(jb_ + 1) + "'d" + num(j);
      inWin += (j ? " +\n      " : "") + std::string("(") + have + " ? " + x_ + "(" +
               field("taken", job(j)) + ") - " + x_ + "(" + field("left", job(j)) + ") : '0)";
      if (j)
        cont += " && !" + field("new_pass", job(j));
      outside += (j ? " ||\n      " : "") + std::string("(") + have + " && " + cont +
                 " && untaken" + num(j) + " != '0)";
    }
    b.assign("in_window", inWin);
    b.assign("pass_outside", outside);
  }
  b.assign("short_o", "have_head && in_window < " + x_ + "(Depth) && pass_outside");
  b.assign("busy_o", "have_head || fa_ret_valid_q || fb_ret_valid_q");
  b.blank();
}

void TdFeederGenerator::state(vlog::Body& b) const {

  // ================================================================ state
  const std::string inc = num(jb_ + 1) + "'(";
  vlog::SeqItem& q = b.sequential();
  q.reset.line("alloc_q <= '0;").line("head_q <= '0;").line("count_q <= '0;");
  q.reset.line("afill_q <= '0;").line("apend_q <= '0;").line("fa_i_q <= '0;");
  q.reset.line("fa_ret_valid_q <= 1'b0;");
  q.reset.line("bfill_q <= '0;").line("bpend_q <= '0;").line("fb_t_q <= '0;");
  q.reset.line("fb_ret_valid_q <= 1'b0;").line("fifo_head_q <= '0;").line("fifo_count_q <= '0;");
  vlog::Stmts& c = q.clocked;
  c.ifElse("alloc", [](vlog::Stmts& s) { s.line("alloc_q <= alloc_q + 1'b1;"); });
  c.line("head_q <= head_q + " + num(jb_) + "'(done);");
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
  c.line("fifo_count_q <= fifo_count_q + " + num(fcb_) + "'(fifo_push) - " + num(fcb_) +
         "'(step_take_i);");
  vlog::SeqItem& dq = b.clocked();
  dq.clocked.ifElse("a_go", [&](vlog::Stmts& s) {
    s.line("fa_ret_tile_q <= afill_q;")
        .line("fa_ret_first_q <= " + num(ib_) + "'(fa_i_q);")
        .line("fa_ret_count_q <= a_cnt;")
        .line("fa_ret_last_q <= a_done;");
    if (words_ > 1)
      s.line("fa_ret_slot_q <= a_slot;");
  });
  dq.clocked.ifElse("b_go", [&](vlog::Stmts& s) {
    s.line("fb_ret_zero_q <= !b_real;").line("fb_ret_count_q <= b_cnt;");
    s.line("fb_ret_job_q <= bfill_q;");
    if (words_ > 1)
      s.line("fb_ret_slot_q <= b_slot;");
  });
}

// The field `name` of the job in slot `idx` (a_ready, taken and left: its progress).
std::string TdFeederGenerator::field(const std::string& name, const std::string& idx) const {
  for (const SlotField& f : fields_)
    if (f.name == name)
      return at(name + "_v", idx, f.width);
  if (name == "a_ready")
    return at("a_ready_v", idx, 1);
  return at(name + "_v", idx, db_); // taken, left
}

// (a + b) mod FifoRows, for a < FifoRows and b <= FifoRows.
std::string TdFeederGenerator::ringAdd(const std::string& a, const std::string& bExpr) const {
  const std::string s = "(32'(" + a + ") + 32'(" + bExpr + "))";
  return num(fib_) + "'(" + s + " >= FifoRows ? " + s + " - FifoRows : " + s + ")";
}

// The offer walks the jobs from the head on: job 0 is the head's slot, job j the j-th after it.
std::string TdFeederGenerator::job(int j) const {
  return j == 0 ? std::string("head_q") : "job" + num(j);
}

} // namespace by::hw
