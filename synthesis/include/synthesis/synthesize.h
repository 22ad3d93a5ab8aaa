// `brickyard synth` (docs/area.md): Yosys synthesis of a generated design, per module (each
// unique module in a Yosys run of its own, cached, several at a time: per_module.h) or, for
// comparison, the whole design in one uncached run; the area report per module (report.h).
//
//   OUT/reports/synth.json, synth.txt       the report
//   OUT/reports/yosys_stat.json, yosys_srams.txt   the merged Yosys statistics
//   OUT/reports/synth.ys, yosys.log         the elaboration's script and log
#pragma once

#include "synthesis/design.h"

#include <filesystem>
#include <string>

namespace by::synthesis {

struct SynthRequest {
  Design design;
  std::string top;                // the module to synthesize; empty: the design's top
  bool sramMacros = true;         // SRAMs as black boxes priced as macros (else flip-flops)
  std::filesystem::path cacheDir; // the cache folder (its synth/); empty: the default
  int jobs = 1;                   // Yosys runs at a time
  bool whole = false;             // the whole design in one Yosys run, uncached
};

/// Synthesizes, writes the reports and prints the text report. Throws std::runtime_error when
/// Yosys is missing or fails (with the end of its log).
void synthesize(const SynthRequest& request);

} // namespace by::synthesis
