// Cutting an elaborated Yosys design (RTLIL text, as `write_rtlil` writes it after
// `hierarchy`) into modules, so that `brickyard synth` can synthesize each unique module in a
// Yosys run of its own (docs/area.md, "Per-module synthesis").
#pragma once

#include <istream>
#include <map>
#include <string>
#include <vector>

namespace by::synthesis {

struct RtlilModule {
  std::string name; // as Yosys writes it: "\by_pe" or "$paramod$<hash>\by_fifo"
  /// The module's attribute lines and `module ... end`, without `src` attributes (they name
  /// files and lines, which would make identical modules look different).
  std::string text;
  bool blackbox = false;
  std::map<std::string, long long> cellTypes; // cells by type: gates, submodules, macros
};

/// The modules of an RTLIL design, in file order.
std::vector<RtlilModule> splitRtlil(std::istream& in);

/// A black box with the module's ports and parameters only: what a parent's synthesis needs
/// to know of a child (the port directions and widths), without its contents.
std::string rtlilStub(const RtlilModule& module);

/// The text with the numbers Yosys appends to internal names ("$add$by_pe.sv:60$6407_Y",
/// "$fordecl_block$11.l") renumbered from 1 in order of first appearance. Yosys draws them from
/// one counter over the whole design, so the same module elaborated next to different
/// neighbours gets different numbers; renumbered, it gets the same text (and cache key).
/// Names of modules ("$paramod$<hash>\...") are kept, and the renaming is one-to-one, so the
/// design means the same.
/// `count` (optional) receives how many numbers there were.
std::string renumberInternalNames(const std::string& text, size_t* count = nullptr);

} // namespace by::synthesis
