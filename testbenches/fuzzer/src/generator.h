// The state of one program generation: the random source, the CONFIG state the legal
// commands emitted so far leave in the accelerator (tracked independently of FuncModel), and
// the output-region allocator. One operation emits one to a few commands.
#pragma once

#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "funcmodel/state.h"
#include "fuzzer/program_generator.h"

#include <array>
#include <cstdint>
#include <random>
#include <string>

namespace by::fuzzer {

// The program generator speaks the functional model's command vocabulary.
using funcmodel::ConfigExArgs;
using funcmodel::ConfigLdArgs;
using funcmodel::ConfigStArgs;
using funcmodel::ExecConfig;
using funcmodel::Instruction;
using funcmodel::LoadChannel;
using funcmodel::ModelParams;
using funcmodel::Operand;
using funcmodel::StoreConfig;

class Generation {
public:
  Generation(const ModelParams& params, const DramLayout& layout, const GeneratorOptions& options,
             uint64_t seed);
  GeneratedProgram run();

private:
  // Random choices (platform-independent: only the raw 64-bit engine output is used).
  uint64_t uniform(uint64_t lo, uint64_t hi); // inclusive
  int uniformInt(int lo, int hi) { return static_cast<int>(uniform(lo, hi)); }
  bool chance(double p);
  bool gemminiFlag(double p);      // a disputed gemmini.h address flag, when enabled
  uint32_t pickSize(uint32_t max); // 1, DIM, max or anything in 1..max
  // The column limit of an MVIN (docs/isa.md): scratchpad, accumulator of elem_t, of acc_t.
  uint64_t maxMvinCols(bool toAcc, bool narrow) const;
  /// Lane-packed B (docs/isa.md, "Vector PEs"): rows for a reduction of k, and columns for
  /// n output columns (n*lanes, sometimes any width so that partial packs occur).
  uint32_t packedRows(uint32_t k) const;
  uint32_t packedCols(uint32_t n);
  uint32_t pickScaleBits();

  void emit(const Instruction& i, const std::string& comment, int expectedError = 0);

  // Commands that change tracked CONFIG state (legal ones only).
  void emitConfigEx(const ConfigExArgs& a, const std::string& why);
  void emitConfigLd(const ConfigLdArgs& a, const std::string& why);
  void emitConfigSt(const ConfigStArgs& a, const std::string& why);
  ConfigExArgs randomConfigEx(int dataflow);
  /// The config has CONFIG_EX's transposes (one lane, no TensorDash: docs/isa.md).
  bool hasTransposer() const { return p_.lanes == 1 && !p_.tensordash; }
  ConfigLdArgs randomConfigLd(int channel);
  ConfigStArgs plainConfigSt(uint32_t minStride);
  ConfigExArgs legalConfigEx(); // random, with a dataflow the hardware has
  /// Switches to `dataflow` (a CONFIG_EX) unless it is set; then sometimes new strides only.
  void useDataflow(int dataflow, const std::string& what);

  // Operations.
  void initLocalMemories();
  void opMvin();
  void opMvout();
  void opMatmulWs();
  void opMatmulOs();
  void opConfigEx();
  void opCounter();
  void opConfigTable();
  void opIllegal(int errorClass);
  // The error classes of opIllegal with more than a few lines.
  void illegalUnknownFunct();
  void illegalUnsupported();
  void illegalBadSize();
  void illegalBadPool();
  void opCompressed(); // Boveda configs only (generator_boveda.cpp)
  void opLoopWs();     // loops.ws configs only (generator_loop.cpp)
  void opLoopConv();   // loops.conv configs only (generator_loop.cpp)
  void dumpLocalMemories();

  // Helpers of the operations.
  bool allocOutput(uint64_t span, int align, uint64_t& addr);
  /// A random operand of `rows` x `cols` in `mem` (rows `stride` apart) avoiding `busy`
  /// (inclusive row intervals per memory); false when none was found.
  struct Busy {
    bool acc;
    uint64_t first, last;
  };
  bool placeOperand(bool acc, uint32_t rows, uint32_t stride, const std::vector<Busy>& busy,
                    uint32_t& row);
  /// A source operand placed anywhere in the scratchpad or accumulator (a garbage address when
  /// none fits), its rows added to `busy` so that the result avoids them.
  static Operand logical(Operand stored, bool transposed);
  Operand operandA(uint32_t m, uint32_t k, std::vector<Busy>& busy);
  Operand sourceOperand(bool acc, uint32_t rows, uint32_t cols, uint32_t stride,
                        std::vector<Busy>& busy);
  void pair(bool preloaded, const Operand& bd, const Operand& c, const Operand& a,
            const Operand& bdCompute, const std::string& what);

  ModelParams p_;
  DramLayout layout_;
  GeneratorOptions options_;
  std::mt19937_64 rng_;
  GeneratedProgram out_;

  // Tracked accelerator state after the legal commands emitted so far.
  ExecConfig ex_;
  std::array<LoadChannel, 3> ld_;
  StoreConfig st_;
  bool arrayValid_ = false;

  uint64_t outputNext_ = 0;
  bool forceMatmul_ = false; // after a dangling PRELOAD: the next command is an execute one
  std::vector<int> illegalOrder_;
  size_t illegalNext_ = 0;
};

} // namespace by::fuzzer
