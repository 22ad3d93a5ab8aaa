// Shared helpers of the functional-model tests: a model with its DRAM image, and byte
// accessors for little-endian elements written independently of the model's own code.
#pragma once

#include "config/config.h"
#include "funcmodel/dram.h"
#include "funcmodel/encode.h"
#include "funcmodel/func_model.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace by::test {

/// A shipped config (configs/<name>.yaml), a test config (testbenches/configs/<name>.yaml), or
/// "tiny16" (tiny with 16-bit elements) or "tiny64"
/// (tiny with 64-bit accumulators and outputs).
config::Config shippedConfig(const std::string& name);
/// tiny.yaml with whole lines replaced: {from, to} pairs such as
/// {"  input_width: 8", "  input_width: 16"}.
config::Config tinyWith(const std::vector<std::pair<std::string, std::string>>& replacements);

constexpr uint64_t kDramBase = 0x80000000ull;
constexpr size_t kDramSize = 1u << 20;

/// A functional model with 1 MiB of DRAM at kDramBase.
struct Machine {
  explicit Machine(const config::Config& config);
  explicit Machine(const std::string& shipped = "tiny") : Machine(shippedConfig(shipped)) {}

  /// Executes and returns the result.
  funcmodel::ExecResult run(const funcmodel::Instruction& i) { return model.execute(i); }
  /// Executes and fails the test (with the instruction's text) unless accepted.
  funcmodel::ExecResult ok(const funcmodel::Instruction& i);

  /// Little-endian signed elements of `bytes` bytes at addr (written by hand, not by the
  /// model's own element code).
  void put(uint64_t addr, int bytes, const std::vector<int64_t>& values);
  std::vector<int64_t> get(uint64_t addr, int bytes, size_t count) const;

  int dim() const { return model.params().dim; }

  config::Config config;
  funcmodel::DramImage dram;
  funcmodel::FuncModel model;
};

} // namespace by::test
