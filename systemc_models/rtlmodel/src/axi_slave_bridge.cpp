#include "axi_slave_bridge.h"

#include <algorithm>
#include <cstring>

namespace by::rtlmodel {

AxiSlaveBridge::AxiSlaveBridge(const Config& config, tlm::tlm_initiator_socket<>& socket)
    : cfg_(config), socket_(socket), read_(static_cast<size_t>(config.maxReads)),
      write_(static_cast<size_t>(config.maxWrites)) {
  const size_t burstBytes = static_cast<size_t>(cfg_.maxBurst) * cfg_.beatBytes;
  for (Read& r : read_)
    r.data.resize(burstBytes);
  for (Write& w : write_) {
    w.data.resize(burstBytes);
    w.enables.resize(burstBytes);
  }
}

uint64_t AxiSlaveBridge::beatReadyCycle(const Read& r) const {
  const uint64_t behind = r.beats - 1 - r.next; // beats after this one
  return std::max(r.firstCycle, r.lastCycle > behind ? r.lastCycle - behind : 0);
}

void AxiSlaveBridge::drive(axi::Bus& bus, uint64_t cycle) const {
  bus.ar.ready = reads_ < read_.size();
  bus.r.valid = false;
  if (reads_ > 0) {
    const Read& r = read_[readHead_];
    if (cycle >= beatReadyCycle(r)) {
      bus.r.valid = true;
      bus.r.id = r.id;
      bus.r.resp = r.resp;
      bus.r.last = r.next + 1 == r.beats;
      std::memcpy(bus.r.data.words.data(), r.data.data() + size_t{r.next} * cfg_.beatBytes,
                  static_cast<size_t>(cfg_.beatBytes));
    }
  }
  // A free slot, or an open one waiting for its half, takes an AW or a W beat.
  bus.aw.ready = awIn_ < writes_ || writes_ < write_.size();
  bus.w.ready = wDone_ < writes_ || writes_ < write_.size();
  bus.b.valid = false;
  if (launched_ > 0) {
    const Write& w = write_[writeHead_];
    if (cycle >= w.bCycle) {
      bus.b.valid = true;
      bus.b.id = w.id;
      bus.b.resp = w.resp;
    }
  }
}

uint32_t AxiSlaveBridge::transport(tlm::tlm_generic_payload& p, uint64_t edgeCycle,
                                   uint64_t& doneCycle) {
  // The burst leaves at the edge ending cycle `edgeCycle`. The accelerator is never behind
  // SystemC time when it is clocked (see rtl_accelerator.h); clamp anyway.
  const uint64_t nowPs = sc_core::sc_time_stamp().value();
  const uint64_t edgePs = (edgeCycle + 1) * cfg_.periodPs;
  sc_core::sc_time delay = sc_core::sc_time::from_value(edgePs > nowPs ? edgePs - nowPs : 0);
  socket_->b_transport(p, delay);
  const uint64_t donePs = nowPs + delay.value();
  doneCycle = std::max(edgeCycle + 1, (donePs + cfg_.periodPs - 1) / cfg_.periodPs);
  if (p.is_response_ok())
    return axi::kOkay;
  ++stats_.errorResponses;
  return p.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE ? axi::kDecErr : axi::kSlvErr;
}

void AxiSlaveBridge::launchWrite(Write& w, uint64_t cycle) {
  const uint32_t length = w.beats * static_cast<uint32_t>(cfg_.beatBytes);
  tlm::tlm_generic_payload& p = w.payload;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(w.addr);
  p.set_data_ptr(w.data.data());
  p.set_data_length(length);
  p.set_streaming_width(length);
  p.set_byte_enable_ptr(w.partial ? w.enables.data() : nullptr);
  p.set_byte_enable_length(w.partial ? length : 0);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  w.resp = transport(p, cycle, w.bCycle);
  ++stats_.writeBursts;
  stats_.writeBytes += length;
}

void AxiSlaveBridge::tick(const axi::Bus& bus, uint64_t cycle) {
  if (bus.r.fire()) {
    Read& r = read_[readHead_];
    if (++r.next == r.beats) {
      readHead_ = (readHead_ + 1) % read_.size();
      --reads_;
    }
  }
  if (bus.b.fire()) {
    writeHead_ = (writeHead_ + 1) % write_.size();
    --writes_;
    --awIn_;
    --wDone_;
    --launched_;
  }
  if (bus.ar.fire()) {
    Read& r = read_[(readHead_ + reads_) % read_.size()];
    ++reads_;
    r.id = bus.ar.id;
    r.beats = bus.ar.len + 1;
    r.next = 0;
    r.firstCycle = cycle + 1;
    const uint32_t length = r.beats * static_cast<uint32_t>(cfg_.beatBytes);
    const bool supported = bus.ar.burst == axi::kIncr && r.beats <= uint32_t(cfg_.maxBurst) &&
                           (1u << bus.ar.size) == uint32_t(cfg_.beatBytes) &&
                           bus.ar.addr % cfg_.beatBytes == 0;
    if (!supported) { // the checker reports the violation; the data is not read
      r.resp = axi::kSlvErr;
      r.beats = std::min(r.beats, uint32_t(cfg_.maxBurst));
      r.lastCycle = r.firstCycle;
      ++stats_.errorResponses;
    } else {
      tlm::tlm_generic_payload& p = r.payload;
      p.set_command(tlm::TLM_READ_COMMAND);
      p.set_address(bus.ar.addr);
      p.set_data_ptr(r.data.data());
      p.set_data_length(length);
      p.set_streaming_width(length);
      p.set_byte_enable_ptr(nullptr);
      p.set_byte_enable_length(0);
      p.set_dmi_allowed(false);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      r.resp = transport(p, cycle, r.lastCycle);
      ++stats_.readBursts;
      stats_.readBytes += length;
    }
  }
  if (bus.aw.fire()) {
    if (awIn_ == writes_) { // no slot waits for an AW: open one
      Write& w = write_[(writeHead_ + writes_) % write_.size()];
      w.beatsIn = 0;
      w.partial = false;
      ++writes_;
    }
    Write& w = write_[(writeHead_ + awIn_) % write_.size()];
    ++awIn_;
    w.id = bus.aw.id;
    w.addr = bus.aw.addr;
    w.beats = std::min(bus.aw.len + 1, uint32_t(cfg_.maxBurst));
  }
  if (bus.w.fire()) {
    if (wDone_ == writes_) { // a W beat ahead of its AW opens a slot
      Write& w = write_[(writeHead_ + writes_) % write_.size()];
      w.beatsIn = 0;
      w.partial = false;
      ++writes_;
    }
    Write& w = write_[(writeHead_ + wDone_) % write_.size()];
    if (w.beatsIn < uint32_t(cfg_.maxBurst)) { // beyond maxBurst: a violation, data dropped
      const size_t at = size_t{w.beatsIn} * cfg_.beatBytes;
      std::memcpy(w.data.data() + at, bus.w.data.words.data(), size_t(cfg_.beatBytes));
      for (int i = 0; i < cfg_.beatBytes; ++i) {
        const bool on = bus.w.strb.bit(i);
        w.enables[at + size_t(i)] = on ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
        w.partial |= !on;
      }
      ++w.beatsIn;
    }
    if (bus.w.last)
      ++wDone_;
  }
  // Send every write that has both its AW and all its data, in order.
  while (launched_ < std::min(awIn_, wDone_)) {
    Write& w = write_[(writeHead_ + launched_) % write_.size()];
    w.beats = std::min(w.beats, w.beatsIn); // a short burst is a violation; write what came
    launchWrite(w, cycle);
    ++launched_;
  }
}

} // namespace by::rtlmodel
