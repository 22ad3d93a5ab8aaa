#include "accel_system.h"

#include "axi/dma_checker.h"

#include <sstream>

namespace by::test {

namespace {

axi::MemoryConfig memoryConfig(const SystemOptions& o, int beatBytes) {
  axi::MemoryConfig m;
  m.base = o.memBase;
  m.size = o.memSize;
  m.dataBytes = beatBytes;
  m.seed = o.seed * 3 + 1;
  if (o.stress) {
    m.minLatency = 0;
    m.maxLatency = 30;
    m.arReadyPercent = 60;
    m.awReadyPercent = 60;
    m.wReadyPercent = 70;
    m.rGapPercent = 20;
    m.bGapPercent = 20;
  } else {
    m.minLatency = m.maxLatency = o.fixedLatency;
    m.bytesPerCycle = o.bytesPerCycle;
    m.oldestFirst = o.oldestFirst;
  }
  return m;
}

constexpr uint32_t kStatusResponseValid = 1u << 3;

} // namespace

AccelSystem::AccelSystem(const config::Config& config, const SystemOptions& options)
    : opt_(options), rng_(options.seed * 7 + 5) {
  const hw::DmaParams dma = hw::dmaParams(config);
  context_ = std::make_unique<VerilatedContext>();
#if BY_MODEL_TRACE
  if (!opt_.tracePath.empty())
    context_->traceEverOn(true);
#endif
  dut_ = std::make_unique<BY_MODEL>(context_.get());
#if BY_MODEL_TRACE
  if (!opt_.tracePath.empty()) {
    trace_ = std::make_unique<VerilatedVcdC>();
    dut_->trace(trace_.get(), 99);
    trace_->open(opt_.tracePath.c_str());
  }
#endif
  memory_ = std::make_unique<axi::Memory>(memoryConfig(opt_, dma.beatBytes()));
  axiChecker_ = std::make_unique<axi::Checker>(axi::dmaCheckerConfig(dma), "accelerator AXI4");
  liteChecker_ = std::make_unique<axi::LiteChecker>(axi::LiteCheckerConfig{}, "AXI4-Lite");
  axi::LiteMasterConfig lite;
  lite.seed = opt_.seed * 5 + 3;
  lite_ = std::make_unique<axi::LiteMaster>(lite);

  // Reset with every input idle; the models start after it.
  dut_->rst_ni = 0;
  for (int i = 0; i < 4; ++i) {
    dut_->clk_i = 0;
    evalAndDump(2 * i);
    dut_->clk_i = 1;
    evalAndDump(2 * i + 1);
  }
  dut_->rst_ni = 1;
}

AccelSystem::~AccelSystem() {
  dut_->final();
#if BY_MODEL_TRACE
  if (trace_)
    trace_->close();
#endif
}

void AccelSystem::evalAndDump(uint64_t time) {
  dut_->eval();
#if BY_MODEL_TRACE
  if (trace_)
    trace_->dump(time);
#else
  (void)time;
#endif
}

void AccelSystem::issue(const funcmodel::Instruction& instr) {
  Pending p;
  p.instr = instr;
  p.mmio = opt_.mmioPercent > 0 && rng_.percent(opt_.mmioPercent);
  p.index = issued_++;
  queue_.push_back(p);
}

void AccelSystem::startNext() {
  if (rocc_ || mmio_ || queue_.empty())
    return;
  if (opt_.fenceCounterOps && queue_.front().instr.funct == hw::isa::kCounterOp &&
      (dut_->busy_o || !awaitingResp_.empty()))
    return;
  Pending p = queue_.front();
  queue_.pop_front();
  if (!p.mmio) {
    rocc_ = p;
    return;
  }
  mmio_ = p;
  mmioStage_ = MmioStage::Push;
  const auto reg = [](const char* n) { return hw::isa::registerOffset(n); };
  lite_->write(reg("CMD_FUNCT"), p.instr.funct);
  lite_->write(reg("CMD_RS1_LO"), static_cast<uint32_t>(p.instr.rs1));
  lite_->write(reg("CMD_RS1_HI"), static_cast<uint32_t>(p.instr.rs1 >> 32));
  lite_->write(reg("CMD_RS2_LO"), static_cast<uint32_t>(p.instr.rs2));
  lite_->write(reg("CMD_RS2_HI"), static_cast<uint32_t>(p.instr.rs2 >> 32));
  lite_->write(reg("CMD_PUSH"), 1);
}

// The register path of one command: push, then (COUNTER_OP) poll STATUS until the response
// is valid and read RESP_LO/RESP_HI.
void AccelSystem::advanceMmio() {
  if (!mmio_ || !lite_->idle())
    return;
  auto& results = lite_->results();
  for (const axi::LiteResult& r : results)
    if (r.resp != axi::kOkay)
      registerErrors_ += 1;
  const auto reg = [](const char* n) { return hw::isa::registerOffset(n); };
  switch (mmioStage_) {
  case MmioStage::Push:
    results.clear();
    lastProgress_ = cycle_;
    if (mmio_->instr.funct != hw::isa::kCounterOp) {
      mmio_.reset();
      return;
    }
    mmioStage_ = MmioStage::Poll;
    lite_->read(reg("STATUS"));
    return;
  case MmioStage::Poll: {
    const uint32_t status = results.back().data;
    results.clear();
    if (status & kStatusResponseValid) {
      mmioStage_ = MmioStage::Response;
      lite_->read(reg("RESP_LO"));
      lite_->read(reg("RESP_HI"));
    } else {
      lite_->read(reg("STATUS"));
    }
    return;
  }
  case MmioStage::Response:
    responses_.push_back(
        {mmio_->index, results[0].data | (static_cast<uint64_t>(results[1].data) << 32)});
    results.clear();
    lastProgress_ = cycle_;
    mmio_.reset();
    return;
  }
}

void AccelSystem::step() {
  // Inputs of this cycle: the models are Moore machines, so they drive first.
  memory_->drive(bus_);
  axi::toDut(*dut_, bus_);
  lite_->drive(liteBus_);
  dut_->s_axil_awvalid_i = liteBus_.aw.valid;
  dut_->s_axil_awaddr_i = liteBus_.aw.addr;
  dut_->s_axil_wvalid_i = liteBus_.w.valid;
  dut_->s_axil_wdata_i = liteBus_.w.data;
  dut_->s_axil_wstrb_i = liteBus_.w.strb;
  dut_->s_axil_bready_i = liteBus_.b.ready;
  dut_->s_axil_arvalid_i = liteBus_.ar.valid;
  dut_->s_axil_araddr_i = liteBus_.ar.addr;
  dut_->s_axil_rready_i = liteBus_.r.ready;
  dut_->cmd_valid_i = rocc_.has_value();
  if (rocc_) {
    dut_->cmd_funct_i = rocc_->instr.funct;
    dut_->cmd_rs1_i = rocc_->instr.rs1;
    dut_->cmd_rs2_i = rocc_->instr.rs2;
    dut_->cmd_xd_i = rocc_->instr.funct == hw::isa::kCounterOp;
  }
  dut_->resp_ready_i = rng_.percent(opt_.respReadyPercent);
  dut_->clk_i = 0;
  evalAndDump(10 * cycle_ + 20);

  // Settled outputs: observe, then take the handshakes.
  axi::fromDut(*dut_, bus_);
  liteBus_.aw.ready = dut_->s_axil_awready_o;
  liteBus_.w.ready = dut_->s_axil_wready_o;
  liteBus_.b.valid = dut_->s_axil_bvalid_o;
  liteBus_.b.resp = dut_->s_axil_bresp_o;
  liteBus_.ar.ready = dut_->s_axil_arready_o;
  liteBus_.r.valid = dut_->s_axil_rvalid_o;
  liteBus_.r.data = dut_->s_axil_rdata_o;
  liteBus_.r.resp = dut_->s_axil_rresp_o;
  axiChecker_->observe(bus_, cycle_);
  liteChecker_->observe(liteBus_, cycle_);
  if (bus_.ar.fire() || bus_.r.fire() || bus_.aw.fire() || bus_.w.fire() || bus_.b.fire())
    lastProgress_ = cycle_;
  if (rocc_ && dut_->cmd_ready_o) {
    if (dut_->cmd_xd_i)
      awaitingResp_.push_back(rocc_->index);
    rocc_.reset();
    lastProgress_ = cycle_;
  }
  if (dut_->resp_valid_o && dut_->resp_ready_i) {
    if (awaitingResp_.empty()) {
      unexpectedResponses_ += 1;
    } else {
      responses_.push_back({awaitingResp_.front(), dut_->resp_data_o});
      awaitingResp_.pop_front();
    }
    lastProgress_ = cycle_;
  }
  if (dut_->busy_o != lastBusy_) {
    lastBusy_ = dut_->busy_o;
    lastProgress_ = cycle_;
  }
  memory_->tick(bus_);
  lite_->tick(liteBus_);
  dut_->clk_i = 1;
  evalAndDump(10 * cycle_ + 25);
  ++cycle_;
  advanceMmio();
  startNext();
}

bool AccelSystem::waitFor(const std::string& what, const std::function<bool()>& done) {
  lastProgress_ = cycle_;
  while (!done()) {
    step();
    if (cycle_ - lastProgress_ > opt_.watchdogCycles) {
      std::ostringstream os;
      os << "hang while waiting for " << what << ": nothing moved for " << opt_.watchdogCycles
         << " cycles (cycle " << cycle_ << "); commands issued " << issued_ << ", not started "
         << queue_.size() << (rocc_ ? ", one waiting on the RoCC port" : "")
         << (mmio_ ? ", one in the register path" : "") << ", responses due "
         << awaitingResp_.size() << ", busy_o " << int(dut_->busy_o) << ", AXI reads open "
         << axiChecker_->outstandingReads() << ", writes open " << axiChecker_->outstandingWrites();
      hang_ = os.str();
      return false;
    }
  }
  return true;
}

bool AccelSystem::run(uint64_t cycles) {
  const uint64_t end = cycle_ + cycles;
  return waitFor("a run of " + std::to_string(cycles) + " cycles", [&] { return cycle_ >= end; });
}

bool AccelSystem::drain() {
  return waitFor("the program to finish", [&] {
    return queue_.empty() && !rocc_ && !mmio_ && awaitingResp_.empty() && !dut_->busy_o &&
           memory_->idle() && lite_->idle();
  });
}

uint32_t AccelSystem::readRegister(const std::string& name) {
  lite_->results().clear();
  lite_->read(hw::isa::registerOffset(name));
  if (!waitFor("a read of " + name, [&] { return lite_->idle(); }))
    return 0;
  const axi::LiteResult r = lite_->results().back();
  lite_->results().clear();
  if (r.resp != axi::kOkay)
    registerErrors_ += 1;
  return r.data;
}

void AccelSystem::writeRegister(const std::string& name, uint32_t value) {
  lite_->results().clear();
  lite_->write(hw::isa::registerOffset(name), value);
  waitFor("a write of " + name, [&] { return lite_->idle(); });
  for (const axi::LiteResult& r : lite_->results())
    if (r.resp != axi::kOkay)
      registerErrors_ += 1;
  lite_->results().clear();
}

uint64_t AccelSystem::readCounter(const std::string& name) {
  const uint64_t lo = readRegister(name + "_LO");
  return lo | (static_cast<uint64_t>(readRegister(name + "_HI")) << 32);
}

void AccelSystem::finish() {
  axiChecker_->finish(cycle_);
  liteChecker_->finish(cycle_);
}

bool AccelSystem::protocolClean() const {
  return axiChecker_->clean() && liteChecker_->clean() && registerErrors_ == 0 &&
         unexpectedResponses_ == 0;
}

std::string AccelSystem::protocolReport() const {
  std::ostringstream os;
  os << axiChecker_->report() << "\n" << liteChecker_->report() << "\n";
  os << "register accesses answered with an error: " << registerErrors_ << "\n";
  os << "RoCC responses nobody asked for: " << unexpectedResponses_ << "\n";
  return os.str();
}

void AccelSystem::writeBytes(uint64_t addr, const std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i)
    memory_->write8(addr + i, bytes[i]);
}

std::vector<uint8_t> AccelSystem::readBytes(uint64_t addr, size_t n) const {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = memory_->read8(addr + i);
  return out;
}

} // namespace by::test
