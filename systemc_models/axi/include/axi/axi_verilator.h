// Copies between a Verilated model's AXI4 master ports (named m_axi_<channel><signal>_i/_o,
// as the DMA engine emits them) and an axi::Bus. Templates, so they fit any model: channels
// the model lacks (a read-only or write-only master) are skipped at compile time, and ports of
// any width (CData .. QData, VlWide<N>) are handled.
//
// Per cycle: memory.drive(bus); toDut(dut, bus); dut.eval(); fromDut(dut, bus);
//            checker.observe(bus, cycle); memory.tick(bus); clock edge.
#pragma once

#include "axi/axi_types.h"

#include <cstddef>
#include <type_traits>
#include <verilated.h>

namespace by::axi {

namespace detail {

template <typename T> std::enable_if_t<std::is_integral_v<T>> toPort(T& port, const uint32_t* w) {
  if constexpr (sizeof(T) > 4)
    port = static_cast<T>(w[0] | (uint64_t{w[1]} << 32));
  else
    port = static_cast<T>(w[0]);
}

template <std::size_t N> void toPort(VlWide<N>& port, const uint32_t* w) {
  for (std::size_t i = 0; i < N; ++i)
    port[i] = w[i];
}

template <typename T> std::enable_if_t<std::is_integral_v<T>> fromPort(const T& port, uint32_t* w) {
  w[0] = static_cast<uint32_t>(port);
  if constexpr (sizeof(T) > 4)
    w[1] = static_cast<uint32_t>(static_cast<uint64_t>(port) >> 32);
}

template <std::size_t N> void fromPort(const VlWide<N>& port, uint32_t* w) {
  for (std::size_t i = 0; i < N; ++i)
    w[i] = port[i];
}

#define BY_AXI_HAS_PORT(Name, port)                                                                \
  template <typename V, typename = void> struct Name : std::false_type {};                         \
  template <typename V>                                                                            \
  struct Name<V, std::void_t<decltype(std::declval<V&>().port)>> : std::true_type {}

BY_AXI_HAS_PORT(HasReadPorts, m_axi_arvalid_o);
BY_AXI_HAS_PORT(HasWritePorts, m_axi_awvalid_o);
#undef BY_AXI_HAS_PORT

} // namespace detail

/// The slave's outputs (AxREADY, WREADY, R, B) into the model's inputs.
template <typename V> void toDut(V& dut, const Bus& bus) {
  if constexpr (detail::HasReadPorts<V>::value) {
    dut.m_axi_arready_i = bus.ar.ready;
    dut.m_axi_rvalid_i = bus.r.valid;
    dut.m_axi_rid_i = bus.r.id;
    detail::toPort(dut.m_axi_rdata_i, bus.r.data.words.data());
    dut.m_axi_rresp_i = bus.r.resp;
    dut.m_axi_rlast_i = bus.r.last;
  }
  if constexpr (detail::HasWritePorts<V>::value) {
    dut.m_axi_awready_i = bus.aw.ready;
    dut.m_axi_wready_i = bus.w.ready;
    dut.m_axi_bvalid_i = bus.b.valid;
    dut.m_axi_bid_i = bus.b.id;
    dut.m_axi_bresp_i = bus.b.resp;
  }
}

/// The model's master outputs (AR, RREADY, AW, W, BREADY) into the bus.
template <typename V> void fromDut(const V& dut, Bus& bus) {
  if constexpr (detail::HasReadPorts<V>::value) {
    bus.ar.valid = dut.m_axi_arvalid_o;
    bus.ar.id = dut.m_axi_arid_o;
    bus.ar.addr = dut.m_axi_araddr_o;
    bus.ar.len = dut.m_axi_arlen_o;
    bus.ar.size = dut.m_axi_arsize_o;
    bus.ar.burst = dut.m_axi_arburst_o;
    bus.ar.cache = dut.m_axi_arcache_o;
    bus.ar.prot = dut.m_axi_arprot_o;
    bus.r.ready = dut.m_axi_rready_o;
  }
  if constexpr (detail::HasWritePorts<V>::value) {
    bus.aw.valid = dut.m_axi_awvalid_o;
    bus.aw.id = dut.m_axi_awid_o;
    bus.aw.addr = dut.m_axi_awaddr_o;
    bus.aw.len = dut.m_axi_awlen_o;
    bus.aw.size = dut.m_axi_awsize_o;
    bus.aw.burst = dut.m_axi_awburst_o;
    bus.aw.cache = dut.m_axi_awcache_o;
    bus.aw.prot = dut.m_axi_awprot_o;
    bus.w.valid = dut.m_axi_wvalid_o;
    detail::fromPort(dut.m_axi_wdata_o, bus.w.data.words.data());
    detail::fromPort(dut.m_axi_wstrb_o, bus.w.strb.words.data());
    bus.w.last = dut.m_axi_wlast_o;
    bus.b.ready = dut.m_axi_bready_o;
  }
}

} // namespace by::axi
