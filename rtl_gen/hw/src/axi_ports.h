// The AXI4 and AXI4-Lite signals of each channel, in one table: the DMA engines, the command
// frontend and the accelerator top declare and connect their bus ports from it.
#pragma once

#include "vlog/ir.h"

#include <map>
#include <string>
#include <vector>

namespace by::hw::axi {

struct Signal {
  std::string channel; // aw, w, b, ar, r
  std::string name;    // valid, ready, id, addr, ...
  bool managerDrives;  // an output of the manager (master), an input of the subordinate
  std::string width;   // "1", a fixed protocol width ("8"), or a token: ID, ADDR, DATA, STRB
};

/// AXI4, channels aw, w, b, ar, r (the signals the DMA engines use).
const std::vector<Signal>& fullSignals();
/// AXI4-Lite, channels aw, w, b, ar, r.
const std::vector<Signal>& liteSignals();

/// Port name of a signal: <prefix><channel><name>_i or _o, as seen by a manager or not.
std::string portName(const std::string& prefix, const Signal& s, bool manager);

/// Declares the ports of `signals` on `channels` (all when empty), in table order: widths are
/// the signals' width tokens looked up in `widths` (ID, ADDR, DATA, STRB), `docs` comments by
/// signal name (channel + name, e.g. "arlen").
void addPorts(vlog::Module& m, const std::string& prefix, const std::vector<Signal>& signals,
              bool manager, const std::map<std::string, std::string>& widths,
              const std::vector<std::string>& channels = {},
              const std::map<std::string, std::string>& docs = {});

/// Connections of an instance's bus ports to the parent's ports of the same signals:
/// (child port, parent port) for every signal on `channels` (all when empty).
std::vector<std::pair<std::string, std::string>>
connect(const std::vector<Signal>& signals, const std::string& childPrefix,
        const std::string& parentPrefix, bool manager,
        const std::vector<std::string>& channels = {});

} // namespace by::hw::axi
