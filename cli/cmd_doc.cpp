#include "command.h"
#include "config/schema.h"

#include <cstdio>

namespace by::cli {

int runDoc(const std::vector<std::string>& args) {
  std::string topic;
  ArgParser p("doc", "TOPIC",
              "Prints reference documentation generated from the code. Topics:\n"
              "  config   the configuration keys (the reference section of docs/config.md)");
  p.positional("TOPIC", "config", &topic);
  if (!p.parse(args))
    return kExitOk;
  if (topic == "config") {
    std::fputs(config::schemaReferenceMarkdown().c_str(), stdout);
    return kExitOk;
  }
  throw UsageError("unknown topic '" + topic + "'; topics: config");
}

} // namespace by::cli
