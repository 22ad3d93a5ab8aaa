// A loop unroller's RTL alone (by_loop_ws, by_loop_conv_ws) with the decoder's side played by
// the test: every command it issues is taken when cmd_ready_i is high (random, from a seed), a
// legal loop is started as the decoder accepts it, and the issued commands are collected to be
// compared command for command with the functional model's unrolling (loop_ws_unroll_test.cpp,
// loop_conv_unroll_test.cpp). The system tests compare only what the commands leave in DRAM,
// so an unroller that issued the same moves in another order (or one move twice) passes them.
#pragma once

#include "funcmodel/program.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include <verilated.h>

namespace by::test {

// One command on the unroller's output, with the block stride its move uses (cmd_bstride_o of
// the convolution unroller; 0: the channel's).
struct Issued {
  funcmodel::Instruction cmd;
  uint32_t bstride = 0;
  bool operator==(const Issued& o) const { return cmd == o.cmd && bstride == o.bstride; }
};

inline std::string describe(const Issued& i) {
  return funcmodel::formatInstruction(i.cmd) + " bstride " + std::to_string(i.bstride);
}

namespace rig_detail {
// The convolution unroller's extra ports; none on the LOOP_WS unroller.
template <typename M>
auto setExStrides(M& m, uint32_t a, uint32_t c, int) -> decltype(m.ex_a_stride_i = a, void()) {
  m.ex_a_stride_i = a;
  m.ex_c_stride_i = c;
}
template <typename M> void setExStrides(M&, uint32_t, uint32_t, long) {}
template <typename M> auto bstride(const M& m, int) -> decltype(uint32_t(m.cmd_bstride_o)) {
  return m.cmd_bstride_o;
}
template <typename M> uint32_t bstride(const M&, long) {
  return 0;
}
} // namespace rig_detail

template <typename Model> class UnrollerRig {
public:
  explicit UnrollerRig(uint64_t seed)
      : ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<Model>(ctx_.get(), "unroller")), rng_(seed) {
    dut_->rst_ni = 0;
    dut_->clk_i = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~UnrollerRig() { dut_->final(); }

  // Sends `cmd` (started as a loop when `start`; CONFIG_EX's strides `exAStride`, `exCStride`
  // where the unroller takes them), then clocks until the unroller is idle; appends every
  // command it issued meanwhile to `out`. False on a hang.
  bool send(const funcmodel::Instruction& cmd, bool start, uint32_t exAStride, uint32_t exCStride,
            std::vector<Issued>& out) {
    dut_->host_valid_i = 1;
    dut_->host_funct_i = cmd.funct;
    dut_->host_rs1_i = cmd.rs1;
    dut_->host_rs2_i = cmd.rs2;
    dut_->host_xd_i = 0;
    dut_->host_mmio_i = 0;
    rig_detail::setExStrides(*dut_, exAStride, exCStride, 0);
    bool sent = false;
    for (long cycle = 0; cycle < 1000000; ++cycle) {
      dut_->cmd_ready_i = rng_() % 4 != 0;
      dut_->start_i = 0;
      dut_->eval();
      if (dut_->cmd_valid_o && dut_->cmd_ready_i) {
        out.push_back({{static_cast<uint32_t>(dut_->cmd_funct_o), dut_->cmd_rs1_o, dut_->cmd_rs2_o},
                       rig_detail::bstride(*dut_, 0)});
        if (!sent && !dut_->busy_o && dut_->host_ready_o) { // the host command itself
          sent = true;
          lastError_ = dut_->loop_err_o;
          dut_->start_i = start;
          dut_->eval();
        }
      }
      clock();
      if (sent) {
        dut_->host_valid_i = 0;
        dut_->eval();
        if (!dut_->busy_o && !dut_->cmd_valid_o)
          return true;
      }
    }
    return false;
  }
  // loop_err_o as the last host command was taken.
  unsigned lastError() const { return lastError_; }

private:
  void clock() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
  std::mt19937_64 rng_;
  unsigned lastError_ = 0;
};

// Fails the test at the first command where `got` (the RTL) differs from `want` (the model) for
// host command `n`, with the model's commands around it.
inline void compareIssued(size_t n, const funcmodel::Instruction& cmd,
                          const std::vector<Issued>& want, const std::vector<Issued>& got) {
  for (size_t k = 0; k < std::max(want.size(), got.size()); ++k) {
    if (k < want.size() && k < got.size() && want[k] == got[k])
      continue;
    std::ostringstream context;
    for (size_t j = k >= 3 ? k - 3 : 0; j < std::min(k + 3, want.size()); ++j)
      context << "\n  model " << j << ": " << describe(want[j]);
    ADD_FAILURE() << "command " << n << " (" << funcmodel::formatInstruction(cmd)
                  << "), issued command " << k << " of " << got.size()
                  << " (the model: " << want.size() << "): RTL "
                  << (k < got.size() ? describe(got[k]) : "nothing") << ", model "
                  << (k < want.size() ? describe(want[k]) : "nothing") << context.str();
    return;
  }
}

} // namespace by::test
