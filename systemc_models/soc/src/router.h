// The bus: routes transactions by the memory-map table. Initiators bind to `targetSocket`
// (one binding each, named for the statistics); each mapped region's device binds to
// `initiatorSocket`. Targets receive addresses relative to their region's base. Accesses
// that hit no attached device, or cross a region's end, get TLM_ADDRESS_ERROR_RESPONSE.
// The router adds no delay of its own. It counts traffic per (initiator, region).
#pragma once

#include "soc_core/memory_map.h"

#include <cstdint>
#include <map>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

namespace by::soc {

struct Traffic {
  uint64_t bytesRead = 0;
  uint64_t bytesWritten = 0;
  uint64_t transactions = 0;
};

class Router : public sc_core::sc_module {
public:
  tlm_utils::multi_passthrough_target_socket<Router> targetSocket;
  tlm_utils::multi_passthrough_initiator_socket<Router> initiatorSocket;

  Router(const sc_core::sc_module_name& name, const MemoryMap& map);

  void bindInitiator(tlm::tlm_initiator_socket<>& initiator, const std::string& name);
  void bindTarget(RegionId region, tlm::tlm_target_socket<>& target);
  bool hasTarget(RegionId region) const { return port_.count(region) != 0; }

  const std::vector<std::string>& initiatorNames() const { return initiators_; }
  /// Traffic of initiator `index` (binding order) to `region`.
  Traffic traffic(size_t initiator, RegionId region) const;

private:
  struct Route {
    const Region* region = nullptr;
    int port = -1;
  };
  /// The region and target port for [address, address+length), or port -1 (address error).
  Route route(uint64_t address, uint64_t length) const;

  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  unsigned transport_dbg(int initiator, tlm::tlm_generic_payload& payload);
  bool get_direct_mem_ptr(int initiator, tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);

  const MemoryMap& map_;
  std::map<RegionId, int> port_;
  std::vector<const Region*> portRegion_; // by target port
  std::vector<std::string> initiators_;
  std::map<std::pair<size_t, RegionId>, Traffic> traffic_;
};

} // namespace by::soc
