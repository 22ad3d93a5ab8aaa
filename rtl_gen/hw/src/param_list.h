// The array parameters shared by PE, tile and mesh: declared once, passed down once.
#pragma once

#include "hwspec/array_params.h"
#include "vlog/ir.h"

#include <string>
#include <utility>
#include <vector>

namespace by::hw {

inline std::vector<std::pair<std::string, std::string>> peParamValues(const ArrayParams& p) {
  std::vector<std::pair<std::string, std::string>> values = {
      {"Lanes", std::to_string(p.lanes)},
      {"InputWidth", std::to_string(p.inputWidth)},
      {"AWidth", std::to_string(p.aWidth())},
      {"AccWidth", std::to_string(p.accWidth)},
      {"OutputWidth", std::to_string(p.outputWidth)},
      {"BWidth", std::to_string(p.bWidth())},
      {"DWidth", std::to_string(p.dWidth())},
      {"RegWidth", std::to_string(p.regWidth())},
  };
  if (p.hasOs) // the shift exists only for OS results
    values.emplace_back("ShiftWidth", std::to_string(p.shiftWidth));
  return values;
}

inline void declarePeParams(vlog::Module& m, const ArrayParams& p) {
  const std::vector<std::string> comments = {
      "MACs per PE reducing into one sum",
      "bits of an input element (elem_t)",
      "a per PE row: Lanes elements (then TensorDash selects)",
      "bits of OS accumulators (acc_t)",
      "bits of partial sums / results leaving a PE",
      "b chain: WS partial sums and/or OS operands",
      "preload chain: WS weights and/or OS results",
      "each stationary register",
      "bits of the OS output shift amount",
  };
  auto values = peParamValues(p);
  for (size_t i = 0; i < values.size(); ++i)
    m.param(values[i].first, values[i].second, comments[i]);
}

/// Pass-through connections "Name (Name)" for instantiating a child with the parent's params.
inline std::vector<std::pair<std::string, std::string>> forwardPeParams(const ArrayParams& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, value] : peParamValues(p))
    out.emplace_back(name, name);
  return out;
}

} // namespace by::hw
