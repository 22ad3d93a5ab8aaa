#include "command.h"
#include "config/schema.h"
#include "eval/energy.h"
#include "hwspec/isa.h"
#include "soc_core/layout.h"

#include <cstdio>

namespace by::cli {

int runDoc(const std::vector<std::string>& args) {
  std::string topic;
  ArgParser p("doc", "TOPIC",
              "Prints reference documentation generated from the code. Topics:\n"
              "  config   the configuration keys (the reference section of docs/config.md)\n"
              "  isa      command encodings, registers, errors, events (docs/isa.md)\n"
              "  soc      the SoC memory map (docs/soc.md)\n"
              "  energy   the energy table of brickyard eval (docs/evaluation.md)");
  p.positional("TOPIC", "config, isa, soc or energy", &topic);
  if (!p.parse(args))
    return kExitOk;
  if (topic == "config") {
    std::fputs(config::schemaReferenceMarkdown().c_str(), stdout);
    return kExitOk;
  }
  if (topic == "isa") {
    std::fputs(hw::isa::referenceMarkdown().c_str(), stdout);
    return kExitOk;
  }
  if (topic == "soc") {
    config::SocConfig soc; // any valid SoC: the table shows the DRAM size as its config key
    soc.dram.sizeMiB = 64;
    soc.clockMHz = 1000;
    std::fputs(soc::memoryMapMarkdown(soc::MemoryMap(soc)).c_str(), stdout);
    return kExitOk;
  }
  if (topic == "energy") {
    std::fputs(eval::energyTableMarkdown().c_str(), stdout);
    return kExitOk;
  }
  throw UsageError("unknown topic '" + topic + "'; topics: config, isa, soc, energy");
}

} // namespace by::cli
