// DRAM: one backing store shared by the host CPU (mapped into Unicorn, no copies) and by
// TLM initiators (the accelerator's DMA). Timing for TLM accesses:
//   data transfer starts at max(arrival + latency_cycles, busy-until) and takes
//   ceil(bytes / bytes_per_cycle) cycles; busy-until then moves to its end,
// i.e. the first-beat latency of independent requests overlaps (several outstanding
// transactions) while the data bus is one shared, serialised resource. The response is
// annotated with the completion time; the model never calls wait().
// DMI is granted for the whole array (for untimed debug access), as is transport_dbg.
#pragma once

#include "clock.h"
#include "config/config.h"
#include "soc_core/memory_map.h"

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace by::soc {

/// Zero-filled, page-aligned memory from mmap: untouched pages cost nothing, so a 4 GiB
/// DRAM is cheap until used.
class BackingStore {
public:
  explicit BackingStore(uint64_t size);
  ~BackingStore();
  BackingStore(const BackingStore&) = delete;
  BackingStore& operator=(const BackingStore&) = delete;

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

private:
  uint8_t* data_;
  uint64_t size_;
};

class Dram : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<Dram> socket;

  Dram(const sc_core::sc_module_name& name, const Region& region, const config::DramConfig& cfg,
       const Clock& clock);

  uint8_t* data() const { return store_.data(); }
  uint64_t size() const { return store_.size(); }
  const Region& region() const { return region_; }

  uint64_t bytesRead() const { return bytesRead_; }
  uint64_t bytesWritten() const { return bytesWritten_; }
  uint64_t busyCycles() const { return busyCycles_; }

private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& payload);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  /// Copies data for a read or write; false (and an error response) if out of range.
  bool access(tlm::tlm_generic_payload& payload);

  const Region& region_;
  const Clock& clock_;
  const uint64_t latencyCycles_;
  const uint64_t bytesPerCycle_;
  BackingStore store_;
  sc_core::sc_time busyUntil_;
  uint64_t bytesRead_ = 0, bytesWritten_ = 0, busyCycles_ = 0;
};

} // namespace by::soc
