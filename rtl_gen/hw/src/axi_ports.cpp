#include "axi_ports.h"

#include <algorithm>
#include <stdexcept>

namespace by::hw::axi {

namespace {

std::vector<Signal> addressChannel(const std::string& ch) {
  return {{ch, "valid", true, "1"},   {ch, "ready", false, "1"}, {ch, "id", true, "ID"},
          {ch, "addr", true, "ADDR"}, {ch, "len", true, "8"},    {ch, "size", true, "3"},
          {ch, "burst", true, "2"},   {ch, "cache", true, "4"},  {ch, "prot", true, "3"}};
}

bool onChannel(const Signal& s, const std::vector<std::string>& channels) {
  return channels.empty() ||
         std::find(channels.begin(), channels.end(), s.channel) != channels.end();
}

} // namespace

const std::vector<Signal>& fullSignals() {
  static const std::vector<Signal> table = [] {
    std::vector<Signal> t = addressChannel("aw");
    const std::vector<Signal> rest = {
        {"w", "valid", true, "1"},   {"w", "ready", false, "1"}, {"w", "data", true, "DATA"},
        {"w", "strb", true, "STRB"}, {"w", "last", true, "1"},   {"b", "valid", false, "1"},
        {"b", "ready", true, "1"},   {"b", "id", false, "ID"},   {"b", "resp", false, "2"}};
    t.insert(t.end(), rest.begin(), rest.end());
    const std::vector<Signal> ar = addressChannel("ar");
    t.insert(t.end(), ar.begin(), ar.end());
    const std::vector<Signal> r = {{"r", "valid", false, "1"}, {"r", "ready", true, "1"},
                                   {"r", "id", false, "ID"},   {"r", "data", false, "DATA"},
                                   {"r", "resp", false, "2"},  {"r", "last", false, "1"}};
    t.insert(t.end(), r.begin(), r.end());
    return t;
  }();
  return table;
}

const std::vector<Signal>& liteSignals() {
  static const std::vector<Signal> table = {
      {"aw", "valid", true, "1"},   {"aw", "ready", false, "1"}, {"aw", "addr", true, "ADDR"},
      {"w", "valid", true, "1"},    {"w", "ready", false, "1"},  {"w", "data", true, "DATA"},
      {"w", "strb", true, "STRB"},  {"b", "valid", false, "1"},  {"b", "ready", true, "1"},
      {"b", "resp", false, "2"},    {"ar", "valid", true, "1"},  {"ar", "ready", false, "1"},
      {"ar", "addr", true, "ADDR"}, {"r", "valid", false, "1"},  {"r", "ready", true, "1"},
      {"r", "data", false, "DATA"}, {"r", "resp", false, "2"}};
  return table;
}

std::string portName(const std::string& prefix, const Signal& s, bool manager) {
  return prefix + s.channel + s.name + (s.managerDrives == manager ? "_o" : "_i");
}

void addPorts(vlog::Module& m, const std::string& prefix, const std::vector<Signal>& signals,
              bool manager, const std::map<std::string, std::string>& widths,
              const std::vector<std::string>& channels,
              const std::map<std::string, std::string>& docs) {
  for (const Signal& s : signals) {
    if (!onChannel(s, channels))
      continue;
    std::string width = s.width;
    if (!width.empty() && std::isalpha(static_cast<unsigned char>(width[0]))) {
      auto it = widths.find(width);
      if (it == widths.end())
        throw std::logic_error("axi::addPorts: no width for " + width);
      width = it->second;
    }
    const auto doc = docs.find(s.channel + s.name);
    const std::string comment = doc == docs.end() ? "" : doc->second;
    const vlog::Type type = width == "1" ? vlog::Type::bit() : vlog::Type::bits(width);
    if (s.managerDrives == manager)
      m.output(portName(prefix, s, manager), type, comment);
    else
      m.input(portName(prefix, s, manager), type, comment);
  }
}

std::vector<std::pair<std::string, std::string>>
connect(const std::vector<Signal>& signals, const std::string& childPrefix,
        const std::string& parentPrefix, bool manager, const std::vector<std::string>& channels) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Signal& s : signals)
    if (onChannel(s, channels))
      out.emplace_back(portName(childPrefix, s, manager), portName(parentPrefix, s, manager));
  return out;
}

} // namespace by::hw::axi
