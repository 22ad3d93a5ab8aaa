#include "command.h"
#include "config/schema.h"
#include "hw/isa.h"

#include <cstdio>

namespace by::cli {

int runDoc(const std::vector<std::string>& args) {
  std::string topic;
  ArgParser p("doc", "TOPIC",
              "Prints reference documentation generated from the code. Topics:\n"
              "  config   the configuration keys (the reference section of docs/config.md)\n"
              "  isa      command encodings, registers, errors, events (docs/isa.md)");
  p.positional("TOPIC", "config or isa", &topic);
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
  throw UsageError("unknown topic '" + topic + "'; topics: config, isa");
}

} // namespace by::cli
