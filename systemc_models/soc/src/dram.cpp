#include "dram.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <sys/mman.h>

namespace by::soc {

BackingStore::BackingStore(uint64_t size) : size_(size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED)
    throw std::runtime_error("cannot allocate " + std::to_string(size >> 20) + " MiB of DRAM");
  data_ = static_cast<uint8_t*>(p);
}

BackingStore::~BackingStore() {
  munmap(data_, size_);
}

Dram::Dram(const sc_core::sc_module_name& name, const Region& region, const config::DramConfig& cfg,
           const Clock& clock)
    : sc_core::sc_module(name), socket("socket"), region_(region), clock_(clock),
      latencyCycles_(static_cast<uint64_t>(cfg.latencyCycles)),
      bytesPerCycle_(static_cast<uint64_t>(cfg.bytesPerCycle)), store_(region.size) {
  socket.register_b_transport(this, &Dram::b_transport);
  socket.register_transport_dbg(this, &Dram::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Dram::get_direct_mem_ptr);
}

bool Dram::access(tlm::tlm_generic_payload& payload) {
  const uint64_t offset = payload.get_address();
  const uint64_t length = payload.get_data_length();
  if (offset > size() || length > size() - offset) {
    payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (payload.get_streaming_width() < length) {
    payload.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint8_t* mem = data() + offset;
  uint8_t* buf = payload.get_data_ptr();
  const uint8_t* enables = payload.get_byte_enable_ptr();
  const unsigned enableLength = payload.get_byte_enable_length();
  if (payload.is_read()) {
    for (uint64_t i = 0; i < length; ++i)
      if (!enables || enables[i % enableLength] == TLM_BYTE_ENABLED)
        buf[i] = mem[i];
  } else if (payload.is_write()) {
    if (!enables) {
      std::memcpy(mem, buf, length);
    } else {
      for (uint64_t i = 0; i < length; ++i)
        if (enables[i % enableLength] == TLM_BYTE_ENABLED)
          mem[i] = buf[i];
    }
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Dram::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  if (!access(payload))
    return;
  const uint64_t length = payload.get_data_length();
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time arrival = clock_.edgeAtOrAfter(now + delay);
  const sc_core::sc_time dataStart = std::max(arrival + clock_.cycles(latencyCycles_), busyUntil_);
  const uint64_t transferCycles =
      std::max<uint64_t>(1, (length + bytesPerCycle_ - 1) / bytesPerCycle_);
  busyUntil_ = dataStart + clock_.cycles(transferCycles);
  busyCycles_ += transferCycles;
  delay = busyUntil_ - now;
  (payload.is_read() ? bytesRead_ : bytesWritten_) += length;
  payload.set_dmi_allowed(true);
}

unsigned Dram::transport_dbg(tlm::tlm_generic_payload& payload) {
  if (payload.get_byte_enable_ptr()) {
    payload.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return 0;
  }
  return access(payload) ? payload.get_data_length() : 0;
}

bool Dram::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_read_write();
  dmi.set_dmi_ptr(data());
  dmi.set_start_address(0);
  dmi.set_end_address(size() - 1);
  // DMI bypasses the queueing model; quote the unloaded latency for users who want one.
  const sc_core::sc_time latency = clock_.cycles(latencyCycles_);
  dmi.set_read_latency(latency);
  dmi.set_write_latency(latency);
  return true;
}

} // namespace by::soc
