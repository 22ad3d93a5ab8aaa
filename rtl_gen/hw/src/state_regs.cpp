#include "state_regs.h"

#include <stdexcept>

namespace by::hw {

StateRegs& StateRegs::add(const std::string& name, const vlog::Type& type, const std::string& reset,
                          const std::string& comment, const std::string& count) {
  if (emitted_)
    throw std::logic_error("StateRegs: register '" + name + "' added after next()");
  if (count.empty()) {
    body_.logic(name + "_q", type, comment);
    body_.logic(name + "_d", type);
  } else {
    body_.logicArray(name + "_q", type, count, comment, "mem2reg");
    body_.logicArray(name + "_d", type, count, "", "mem2reg");
  }
  regs_.push_back({name, reset, count, false});
  return *this;
}

StateRegs& StateRegs::addDriven(const std::string& name, const vlog::Type& type,
                                const std::string& reset, const std::string& comment) {
  add(name, type, reset, comment);
  regs_.back().driven = true;
  return *this;
}

vlog::Stmts& StateRegs::next() {
  if (emitted_)
    throw std::logic_error("StateRegs: next() called twice");
  emitted_ = true;
  std::vector<vlog::Flop> flops;
  for (const Reg& r : regs_)
    flops.push_back({r.name + "_q", r.name + "_d", r.reset, r.count});
  body_.flops(vlog::FlopsItem(flops));
  vlog::Stmts& n = body_.comb();
  for (const Reg& r : regs_) {
    if (r.driven)
      continue;
    if (r.count.empty())
      n.line(r.name + "_d = " + r.name + "_q;");
    else
      n.forLoop("i", r.count,
                [&](vlog::Stmts& s) { s.line(r.name + "_d[i] = " + r.name + "_q[i];"); });
  }
  return n;
}

} // namespace by::hw
