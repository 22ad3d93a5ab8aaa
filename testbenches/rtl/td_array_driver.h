// Drives the generated TensorDash array (by_td_array) for one OS product: dense preload
// beats, the compute pass offered as reduction steps to the front end (as many per cycle as
// it takes), dense drain beats; collects the results and the schedule of every front-end
// beat. Used by the RTL test and the speedup benchmark; include from a translation unit
// compiled with BY_MODEL / BY_MODEL_HEADER for a config with TensorDash.
#pragma once

#include BY_MODEL_HEADER
#include "golden/matmul.h"
#include "hwspec/array_params.h"
#include "rtl_config.h"
#include "tensordash/schedule.h"
#include "verilator_ports.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

namespace by::test {

using golden::BitVec;
using golden::Matrix;

class TdArray {
public:
  TdArray() : p_(hw::arrayParams(builtConfig())), td_(hw::tensorDashParams(p_)) {
    ctx_ = std::make_unique<VerilatedContext>();
    dut_ = std::make_unique<BY_MODEL>(ctx_.get());
    dut_->rst_ni = 0;
    tick();
    tick();
    dut_->rst_ni = 1;
  }
  ~TdArray() { dut_->final(); }

  const hw::ArrayParams& params() const { return p_; }
  const tensordash::TensorDashParams& tdParams() const { return td_; }

  struct Pass {
    Matrix c;                          // the drained results
    int beats = 0;                     // front-end beats of the compute pass
    std::vector<std::vector<int>> sel; // per beat: groups*lanes selects (-1 = idle)
    std::vector<int> advance;          // per beat
  };

  /// C = D + A*B in OS: preload D (dense beats), the compute pass through the front end,
  /// drain with `shift` (dense beats).
  Pass run(const Matrix& a, const Matrix& b, const Matrix& d, unsigned shift, bool enable) {
    const int dim = p_.dim, lanes = p_.lanes, iw = p_.inputWidth;
    const int steps = a.cols / lanes;
    Pass out;
    dut_->enable_i = enable;
    dut_->hold_i = 0;
    // Preload: beat j carries row dim-1-j of D (prop 0).
    for (int j = 0; j < dim; ++j) {
      BitVec dv(dim * p_.dWidth());
      for (int c = 0; c < dim; ++c)
        dv.set(c * p_.dWidth(), p_.outputWidth, static_cast<uint64_t>(d.at(dim - 1 - j, c)));
      dense(true, false, 0, BitVec(dim * lanes * iw), BitVec(dim * p_.bWidth()), dv);
    }
    // Compute pass (prop 1): offer up to Depth steps per cycle until the last beat.
    dut_->mode_i = 1;
    dut_->in_valid_i = 0;
    dut_->in_prop_i = 1;
    dut_->in_shift_i = 0;
    int next = 0;
    for (int guard = 0;; ++guard) {
      if (guard > 4 * steps + 20)
        throw std::runtime_error("TensorDash pass did not end");
      const int avail = std::min(p_.tdDepth, steps - next);
      BitVec sa(p_.tdDepth * dim * lanes * iw), sb(p_.tdDepth * dim * lanes * iw);
      for (int i = 0; i < avail; ++i)
        for (int r = 0; r < dim; ++r)
          for (int l = 0; l < lanes; ++l) {
            const int k = (next + i) * lanes + l;
            sa.set(((i * dim + r) * lanes + l) * iw, iw, static_cast<uint64_t>(a.at(r, k)));
            sb.set(((i * dim + r) * lanes + l) * iw, iw, static_cast<uint64_t>(b.at(k, r)));
          }
      dut_->step_avail_i = static_cast<uint8_t>(avail);
      dut_->step_end_i = next + avail == steps;
      setPort(dut_->step_a_i, sa);
      setPort(dut_->step_b_i, sb);
      dut_->clk_i = 0;
      dut_->eval();
      next += dut_->step_take_o;
      const bool beat = dut_->td_beat_o, last = dut_->td_last_o;
      if (std::getenv("BY_TD_DEBUG"))
        std::printf("cycle %d: avail %d end %d take %d beat %d last %d adv %d busy %d\n", guard,
                    avail, next == steps, dut_->step_take_o, beat, last, dut_->td_advance_o,
                    dut_->td_busy_o);
      if (beat) {
        ++out.beats;
        const BitVec sel = getPort(dut_->td_sel_o, td_.groups() * lanes * p_.tdSelBits);
        std::vector<int> s;
        for (int i = 0; i < td_.groups() * lanes; ++i) {
          const int v = static_cast<int>(sel.get(i * p_.tdSelBits, p_.tdSelBits));
          s.push_back(v == p_.tdIdleSelect() ? tensordash::kIdle : v);
        }
        out.sel.push_back(s);
        out.advance.push_back(dut_->td_advance_o);
      }
      clockEdge();
      if (beat && last)
        break;
    }
    dut_->mode_i = 0;
    // Drain (prop 0, shift on the first beat).
    for (int j = 0; j < dim; ++j)
      dense(true, false, j == 0 ? shift : 0, BitVec(dim * lanes * iw), BitVec(dim * p_.bWidth()),
            BitVec(dim * p_.dWidth()));
    for (int i = 0; i < p_.latency() + 2; ++i) // let the drained rows leave
      dense(false, false, 0, BitVec(dim * lanes * iw), BitVec(dim * p_.bWidth()),
            BitVec(dim * p_.dWidth()));
    // The last dim results are the drain beats': C rows bottom-up.
    if (results_.size() < static_cast<size_t>(dim))
      throw std::runtime_error("TensorDash array: fewer results than drain beats");
    out.c = Matrix(dim, dim);
    for (int j = 0; j < dim; ++j) {
      const BitVec& r = results_[results_.size() - dim + j];
      for (int c = 0; c < dim; ++c)
        out.c.at(dim - 1 - j, c) = r.getSigned(c * p_.outputWidth, p_.outputWidth);
    }
    results_.clear();
    return out;
  }

private:
  void dense(bool valid, bool prop, unsigned shift, const BitVec& a, const BitVec& b,
             const BitVec& d) {
    dut_->mode_i = 0;
    dut_->in_valid_i = valid;
    dut_->in_prop_i = prop;
    dut_->in_shift_i = shift;
    setPort(dut_->in_a_i, a);
    setPort(dut_->in_b_i, b);
    setPort(dut_->in_d_i, d);
    dut_->step_avail_i = 0;
    dut_->step_end_i = 0;
    tick();
  }
  void tick() {
    dut_->clk_i = 0;
    dut_->eval();
    clockEdge();
  }
  void clockEdge() {
    if (dut_->out_valid_o)
      results_.push_back(getPort(dut_->out_result_o, p_.dim * p_.outputWidth));
    dut_->clk_i = 1;
    dut_->eval();
  }

  hw::ArrayParams p_;
  tensordash::TensorDashParams td_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> dut_;
  std::vector<BitVec> results_;
};

} // namespace by::test
