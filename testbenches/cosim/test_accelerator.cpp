#include "test_accelerator.h"

#include "test_accel.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace by::test {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

constexpr uint32_t kDmaChunkBytes = 64; // bytes per DMA transaction

} // namespace

TestAccelerator::TestAccelerator(const sc_core::sc_module_name& name, sc_core::sc_time clockPeriod,
                                 std::vector<std::string>& log)
    : sc_core::sc_module(name), control("control"), dma("dma"), irq("irq"), period_(clockPeriod),
      log_(log) {
  control.register_b_transport(this, &TestAccelerator::b_transport);
  SC_THREAD(worker);
}

uint64_t TestAccelerator::rocc(const soc::RoccCommand& c, sc_core::sc_time& delay) {
  ++commands_;
  log_.push_back(format("rocc funct7=%u xd=%d xs1=%d xs2=%d rd=%u rs1=%u rs2=%u rs1v=%#llx "
                        "rs2v=%#llx",
                        c.funct7, c.xd, c.xs1, c.xs2, c.rd, c.rs1, c.rs2,
                        static_cast<unsigned long long>(c.rs1Value),
                        static_cast<unsigned long long>(c.rs2Value)));
  if (c.funct7 >= TA_CMD_ECHO_FIRST)
    return TA_ECHO(uint64_t{c.funct7}, c.rs1Value, c.rs2Value);
  // Everything else acts on shared state: first catch up with the host's local time.
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  switch (c.funct7) {
  case TA_CMD_QUEUED:
  case TA_CMD_COPY:
    if (queue_.size() >= TA_QUEUE_DEPTH) {
      ++queueFullStalls_;
      const sc_core::sc_time start = sc_core::sc_time_stamp();
      while (queue_.size() >= TA_QUEUE_DEPTH)
        wait(dequeued_);
      stallCycles_ += static_cast<uint64_t>((sc_core::sc_time_stamp() - start) / period_);
    }
    queue_.push_back({c.funct7, c.rs1Value, c.rs2Value});
    queued_.notify();
    return 0;
  case TA_CMD_SLEEP:
    wait(period_ * static_cast<double>(c.rs1Value));
    return 0;
  case TA_CMD_BLOCK:
    wait(never_);
    return 0;
  default:
    throw std::runtime_error("test accelerator: unknown command " + std::to_string(c.funct7));
  }
}

void TestAccelerator::waitIdle(sc_core::sc_time& delay) {
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  while (working_ || !queue_.empty())
    wait(idle_);
}

void TestAccelerator::worker() {
  for (;;) {
    while (queue_.empty())
      wait(queued_);
    const Job job = queue_.front();
    queue_.pop_front();
    working_ = true;
    dequeued_.notify();
    if (job.funct7 == TA_CMD_QUEUED)
      wait(period_ * TA_QUEUED_CYCLES);
    else
      copy(job.rs1, job.rs2, dmaLength_);
    working_ = false;
    // A delta later, so that a waiter sees the interrupt line's new value.
    if (queue_.empty())
      idle_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TestAccelerator::copy(uint64_t from, uint64_t to, uint32_t length) {
  uint8_t buffer[kDmaChunkBytes];
  for (uint32_t done = 0; done < length;) {
    const uint32_t n = std::min(kDmaChunkBytes, length - done);
    for (bool write : {false, true}) {
      tlm::tlm_generic_payload p;
      p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address((write ? to : from) + done);
      p.set_data_ptr(buffer);
      p.set_data_length(n);
      p.set_streaming_width(n);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      dma->b_transport(p, delay);
      if (!p.is_response_ok())
        throw std::runtime_error("test accelerator: DMA error " + p.get_response_string());
      wait(delay);
    }
    done += n;
  }
  dmaBytes_ += length;
  irq.write(true);
}

void TestAccelerator::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t offset = p.get_address();
  if (p.get_data_length() != 4 || offset % 4 != 0) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  if (p.is_write())
    std::memcpy(&value, p.get_data_ptr(), 4);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  const bool scratch = offset >= TA_REG_SCRATCH0 && offset < TA_REG_SCRATCH0 + 4 * TA_SCRATCH_COUNT;
  if (p.is_read()) {
    if (offset == TA_REG_ID)
      value = TA_ID_VALUE;
    else if (scratch)
      value = scratch_[(offset - TA_REG_SCRATCH0) / 4];
    else if (offset == TA_REG_DMA_LENGTH)
      value = dmaLength_;
    else if (offset == TA_REG_COMMANDS)
      value = static_cast<uint32_t>(commands_);
    else
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    std::memcpy(p.get_data_ptr(), &value, 4);
  } else {
    if (scratch) {
      scratch_[(offset - TA_REG_SCRATCH0) / 4] = value;
    } else if (offset == TA_REG_DMA_LENGTH) {
      dmaLength_ = value;
    } else if (offset == TA_REG_IRQ_CLEAR) {
      // Lower the line at the access time and let the new level settle (one delta), so the
      // host's next read of the irq status register sees it.
      wait(delay);
      delay = sc_core::SC_ZERO_TIME;
      irq.write(false);
      wait(sc_core::SC_ZERO_TIME);
    } else {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
  }
  log_.push_back(format("mmio %s 0x%02llx %s 0x%08x", p.is_read() ? "read" : "write",
                        static_cast<unsigned long long>(offset), p.is_read() ? "->" : "<-", value));
}

std::vector<soc::AcceleratorCounter> TestAccelerator::counters() const {
  return {{"commands", commands_},
          {"queue_full_stalls", queueFullStalls_},
          {"stall_cycles", stallCycles_},
          {"dma_bytes", dmaBytes_}};
}

} // namespace by::test
