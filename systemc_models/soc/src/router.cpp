#include "router.h"

namespace by::soc {

Router::Router(const sc_core::sc_module_name& name, const MemoryMap& map)
    : sc_core::sc_module(name), targetSocket("targetSocket"), initiatorSocket("initiatorSocket"),
      map_(map) {
  targetSocket.register_b_transport(this, &Router::b_transport);
  targetSocket.register_transport_dbg(this, &Router::transport_dbg);
  targetSocket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  initiatorSocket.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::bindInitiator(tlm::tlm_initiator_socket<>& initiator, const std::string& name) {
  initiator.bind(targetSocket);
  initiators_.push_back(name);
}

void Router::bindTarget(RegionId region, tlm::tlm_target_socket<>& target) {
  initiatorSocket.bind(target);
  port_[region] = static_cast<int>(portRegion_.size());
  portRegion_.push_back(&map_.region(region));
}

Traffic Router::traffic(size_t initiator, RegionId region) const {
  auto it = traffic_.find({initiator, region});
  return it == traffic_.end() ? Traffic{} : it->second;
}

Router::Route Router::route(uint64_t address, uint64_t length) const {
  Route r;
  r.region = map_.find(address);
  if (!r.region || length > r.region->end() - address)
    return r;
  auto it = port_.find(r.region->id);
  if (it != port_.end())
    r.port = it->second;
  return r;
}

void Router::b_transport(int initiator, tlm::tlm_generic_payload& payload,
                         sc_core::sc_time& delay) {
  const uint64_t address = payload.get_address();
  const Route r = route(address, payload.get_data_length());
  if (r.port < 0) {
    payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  payload.set_address(address - r.region->base);
  initiatorSocket[r.port]->b_transport(payload, delay);
  payload.set_address(address);
  Traffic& t = traffic_[{static_cast<size_t>(initiator), r.region->id}];
  ++t.transactions;
  if (payload.is_response_ok())
    (payload.is_read() ? t.bytesRead : t.bytesWritten) += payload.get_data_length();
}

unsigned Router::transport_dbg(int, tlm::tlm_generic_payload& payload) {
  const uint64_t address = payload.get_address();
  const Route r = route(address, payload.get_data_length());
  if (r.port < 0) {
    payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  payload.set_address(address - r.region->base);
  const unsigned n = initiatorSocket[r.port]->transport_dbg(payload);
  payload.set_address(address);
  return n;
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi) {
  const uint64_t address = payload.get_address();
  const Route r = route(address, 1);
  if (r.port < 0)
    return false;
  payload.set_address(address - r.region->base);
  const bool ok = initiatorSocket[r.port]->get_direct_mem_ptr(payload, dmi);
  payload.set_address(address);
  // Back to global addresses, clipped to the region.
  const uint64_t last = r.region->end() - 1 - r.region->base;
  dmi.set_start_address(r.region->base + dmi.get_start_address());
  dmi.set_end_address(r.region->base + std::min<uint64_t>(dmi.get_end_address(), last));
  return ok;
}

void Router::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end) {
  const Region& region = *portRegion_.at(static_cast<size_t>(target));
  const uint64_t last = region.end() - 1;
  const uint64_t globalEnd = end >= region.size ? last : region.base + end;
  for (unsigned i = 0; i < targetSocket.size(); ++i)
    targetSocket[i]->invalidate_direct_mem_ptr(region.base + start, globalEnd);
}

} // namespace by::soc
