// brickyard synth: the options of synthesis::synthesize (synthesis/, docs/area.md).
#include "command.h"
#include "output_info.h"
#include "synthesis/synthesize.h"

#include <algorithm>
#include <thread>

namespace by::cli {

int runSynth(const std::vector<std::string>& args) {
  std::string dir, memories = "macro", cacheDir;
  synthesis::SynthRequest r;
  r.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  ArgParser p("synth", "OUT/",
              "Synthesizes the RTL in OUT/ (written by brickyard gen) with Yosys (generic\n"
              "gates, hierarchy kept) and writes OUT/reports/synth.json and synth.txt: per\n"
              "module its cells, SRAM bits and a transistor estimate (docs/area.md), instance\n"
              "counts and totals. Each unique module (one per parameter set) is synthesized\n"
              "once, in a Yosys run of its own with its submodules as black boxes, -j at a time,\n"
              "and cached under a hash of what that run reads, in --cache-dir/synth,\n"
              "$BRICKYARD_CACHE_DIR/synth, $XDG_CACHE_HOME/brickyard/synth or\n"
              "~/.cache/brickyard/synth: a config that differs only in its soc section, or in\n"
              "some modules, synthesizes only what changed. The elaboration script and log\n"
              "are kept in OUT/reports (synth.ys, yosys.log).");
  p.positional("OUT/", "a directory written by brickyard gen", &dir);
  p.option("--top", "MODULE", "top module (default: the manifest's top)", &r.top);
  p.choice("--memories", "macro|flops",
           "macro (default): SRAMs stay black boxes priced as SRAM macros; flops: Yosys maps "
           "them to flip-flops (small configs only)",
           &memories, {"macro", "flops"});
  p.number("-j", "N", "Yosys runs at a time (default: the number of cores)", &r.jobs, 1, 1024,
           "a positive number of Yosys runs");
  p.option("--cache-dir", "DIR", "where synthesized modules are cached (see above)", &cacheDir);
  p.flag("--whole",
         "synthesize the whole design in one Yosys run, uncached (the flow before per-module "
         "synthesis; much slower, for comparison)",
         &r.whole);
  if (!p.parse(args))
    return kExitOk;
  const GeneratedOutput out = readGeneratedOutput(dir);
  r.design = {out.dir, out.rtlDir, out.rtlFiles, out.top};
  r.sramMacros = memories == "macro";
  r.cacheDir = cacheDir;
  synthesis::synthesize(r);
  return kExitOk;
}

} // namespace by::cli
