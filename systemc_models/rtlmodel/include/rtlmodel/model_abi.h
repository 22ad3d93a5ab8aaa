// The binary interface between Brickyard and a per-config model library: the Verilated
// by_accelerator plus the adapter src/model_adapter.cpp, built by the simulator cache
// (sim_cache.h) into a shared object that `brickyard sim` loads with dlopen. Everything that
// depends on the config (port widths, the Verilated class) stays inside the library; this
// header is the whole contract and is compiled into both sides.
//
// One call of `cycle` is one clock cycle, in the order the system testbench uses:
//   inputs -> ports; clk_i = 0; eval      (combinational outputs settle)
//   ports -> outputs                      (the caller then takes this cycle's handshakes)
//   clk_i = 1; eval                       (the rising edge samples the same inputs)
// so the caller's bus models see the outputs of the cycle before its edge, as on hardware.
#pragma once

#include "axi/axi_types.h"

#include <cstddef>
#include <cstdint>

namespace by::rtlmodel {

/// Bumped whenever Ports or ModelApi change; a library of another version is rebuilt.
constexpr uint32_t kAbiVersion = 1;

/// Every port of by_accelerator but the clock, as plain data. The caller fills the inputs,
/// `cycle` fills the outputs. On the two buses each side owns its fields: the caller drives the
/// AXI4 slave side (AxREADY, WREADY, R, B) and the AXI4-Lite master side (AW, W, AR, BREADY,
/// RREADY); the model drives the rest.
struct Ports {
  // --- inputs
  bool rstN = true;
  bool cmdValid = false;
  uint32_t cmdFunct = 0;
  uint64_t cmdRs1 = 0;
  uint64_t cmdRs2 = 0;
  bool cmdXd = false;
  bool respReady = true;
  // --- outputs
  bool cmdReady = false;
  bool respValid = false;
  uint64_t respData = 0;
  bool irq = false;
  bool busy = false;
  // --- both directions
  axi::LiteBus lite;
  axi::Bus axi;
};

/// What the library exports (by_rtl_model_api()). Functions report failures through the
/// `error` buffer and a false return; they never throw across the library boundary.
struct ModelApi {
  uint32_t abiVersion;
  uint32_t portsSize;       // sizeof(Ports) as the library was compiled
  int traceCompiled;        // built with --trace-fst
  const char* verilatedTop; // "by_accelerator"
  void* (*create)(char* error, size_t errorSize);
  void (*destroy)(void* model);
  /// One clock cycle. With `dump`, both halves go to the open trace at timePs (clock low)
  /// and timePs + halfPeriodPs (clock high).
  void (*cycle)(void* model, Ports* ports, uint64_t timePs, uint64_t halfPeriodPs, int dump);
  /// Opens an FST waveform (libraries built with traceCompiled only).
  int (*openTrace)(void* model, const char* path, char* error, size_t errorSize);
  void (*closeTrace)(void* model);
};

} // namespace by::rtlmodel

/// The library's one exported symbol.
extern "C" const by::rtlmodel::ModelApi* by_rtl_model_api();

/// Its name, for dlsym.
#define BY_RTL_MODEL_API_SYMBOL "by_rtl_model_api"
