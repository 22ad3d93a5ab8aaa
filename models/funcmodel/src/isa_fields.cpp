#include "funcmodel/isa_fields.h"

namespace by::funcmodel {

namespace {

LocalOperandFields operandFields(const hw::isa::Command& c, bool rs1) {
  auto field = [&](const char* name) { return rs1 ? c.rs1Field(name) : c.rs2Field(name); };
  return {field("local_addr"), field("cols"), field("rows")};
}

IsaFields resolve() {
  using hw::isa::command;
  using hw::isa::errorCode;
  IsaFields f{};
  f.functMvin[0] = command("MVIN").funct;
  f.functMvin[1] = command("MVIN2").funct;
  f.functMvin[2] = command("MVIN3").funct;
  f.functMvout = command("MVOUT").funct;
  f.functPreload = command("PRELOAD").funct;
  f.functComputePreloaded = command("COMPUTE_PRELOADED").funct;
  f.functComputeAccumulated = command("COMPUTE_ACCUMULATED").funct;
  f.functFlush = command("FLUSH").funct;
  f.functCounterOp = command("COUNTER_OP").funct;
  f.functConfig = command("CONFIG_EX").funct;
  f.functDecompress = command("DECOMPRESS").funct;

  const hw::isa::Command& ex = command("CONFIG_EX");
  const hw::isa::Command& ld = command("CONFIG_LD");
  const hw::isa::Command& st = command("CONFIG_ST");
  f.configEx = ex.configType;
  f.configLd = ld.configType;
  f.configSt = st.configType;
  f.cmdType = ex.rs1Field("cmd_type");
  f.ex = {ex.rs1Field("dataflow"),    ex.rs1Field("activation"),  ex.rs1Field("set_only_strides"),
          ex.rs1Field("a_transpose"), ex.rs1Field("b_transpose"), ex.rs1Field("td_off"),
          ex.rs1Field("td_side"),     ex.rs1Field("a_stride"),    ex.rs1Field("acc_scale"),
          ex.rs2Field("in_shift"),    ex.rs2Field("relu6_shift"), ex.rs2Field("c_stride")};
  f.ld = {ld.rs1Field("shrink"),       ld.rs1Field("state_id"), ld.rs1Field("pixel_repeats"),
          ld.rs1Field("block_stride"), ld.rs1Field("scale"),    ld.rs2Field("stride"),
          ld.rs1Field("compressed")};
  f.st = {st.rs1Field("activation"), st.rs1Field("pool_stride"), st.rs1Field("pool_size"),
          st.rs1Field("upad"),       st.rs1Field("lpad"),        st.rs1Field("pool_out_dim"),
          st.rs1Field("porows"),     st.rs1Field("pocols"),      st.rs1Field("orows"),
          st.rs1Field("ocols"),      st.rs2Field("stride"),      st.rs2Field("acc_scale"),
          st.rs1Field("compressed")};

  const char* mvins[3] = {"MVIN", "MVIN2", "MVIN3"};
  for (int ch = 0; ch < 3; ++ch) {
    const hw::isa::Command& mv = command(mvins[ch]);
    f.mvinDram[ch] = mv.rs1Field("dram_addr");
    f.mvin[ch] = operandFields(mv, false);
  }
  const hw::isa::Command& mvout = command("MVOUT");
  f.mvoutDram = mvout.rs1Field("dram_addr");
  f.mvout = operandFields(mvout, false);
  const char* computes[2] = {"COMPUTE_ACCUMULATED", "COMPUTE_PRELOADED"};
  for (int p = 0; p < 2; ++p) {
    f.computeA[p] = operandFields(command(computes[p]), true);
    f.computeBD[p] = operandFields(command(computes[p]), false);
  }
  const hw::isa::Command& pre = command("PRELOAD");
  f.preloadBD = operandFields(pre, true);
  f.preloadC = operandFields(pre, false);
  const hw::isa::Command& dec = command("DECOMPRESS");
  f.decompress = {dec.rs1Field("src_addr"), dec.rs1Field("containers"), operandFields(dec, false)};

  const hw::isa::Command& ctr = command("COUNTER_OP");
  f.ctr = {ctr.rs1Field("reset"),     ctr.rs1Field("snapshot_reset"), ctr.rs1Field("snapshot"),
           ctr.rs1Field("configure"), ctr.rs1Field("index"),          ctr.rs1Field("event"),
           ctr.rs1Field("external")};

  f.err = {errorCode("UNKNOWN_FUNCT"), errorCode("BAD_CONFIG_TYPE"), errorCode("UNSUPPORTED"),
           errorCode("LOCAL_RANGE"),   errorCode("BAD_LOCAL_ADDR"),  errorCode("BAD_SIZE"),
           errorCode("BAD_SHIFT"),     errorCode("UNPAIRED"),        errorCode("DMA_ERROR"),
           errorCode("BAD_POOL")};
  return f;
}

} // namespace

const IsaFields& isaFields() {
  static const IsaFields fields = resolve();
  return fields;
}

} // namespace by::funcmodel
