#include "synthesis/rtlil.h"

#include <cctype>
#include <sstream>
#include <unordered_map>

namespace by::synthesis {

namespace {

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

} // namespace

std::vector<RtlilModule> splitRtlil(std::istream& in) {
  std::vector<RtlilModule> modules;
  std::string attributes; // lines before the next `module`
  bool blackbox = false;
  RtlilModule* cur = nullptr;
  for (std::string line; std::getline(in, line);) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent != std::string::npos && startsWith(line.substr(indent), "attribute \\src "))
      continue;
    if (!cur) {
      if (startsWith(line, "attribute ")) {
        attributes += line + "\n";
        blackbox = blackbox || startsWith(line, "attribute \\blackbox ");
      } else if (startsWith(line, "module ")) {
        modules.emplace_back();
        cur = &modules.back();
        cur->name = line.substr(7);
        cur->blackbox = blackbox;
        cur->text = attributes + line + "\n";
        attributes.clear();
        blackbox = false;
      }
      continue; // `autoidx` and blank lines
    }
    cur->text += line + "\n";
    if (line == "end") {
      cur = nullptr;
    } else if (startsWith(line, "  cell ")) {
      const std::vector<std::string> w = words(line);
      if (w.size() >= 3)
        ++cur->cellTypes[w[1]];
    }
  }
  return modules;
}

std::string rtlilStub(const RtlilModule& module) {
  std::istringstream in(module.text);
  std::string out = "attribute \\blackbox 1\n";
  for (std::string line; std::getline(in, line);) {
    if (startsWith(line, "attribute ")) {
      if (!startsWith(line, "attribute \\blackbox "))
        out += line + "\n";
    } else if (startsWith(line, "module ") || startsWith(line, "  parameter ")) {
      out += line + "\n";
    } else if (startsWith(line, "  wire ")) {
      for (const std::string& w : words(line))
        if (w == "input" || w == "output" || w == "inout") {
          out += line + "\n";
          break;
        }
    }
  }
  return out + "end\n";
}

std::string renumberInternalNames(const std::string& text, size_t* count) {
  std::unordered_map<std::string, std::string> renamed;
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // One whitespace-delimited token at a time; only internal names ($...) are touched, and
    // not module names ($paramod...), which parents refer to.
    const size_t end = text.find_first_of(" \t\n", i);
    const size_t stop = end == std::string::npos ? text.size() : end;
    if (text[i] != '$' || text.compare(i, 9, "$paramod$") == 0 ||
        text.compare(i, 10, "$paramod\\") == 0) {
      out.append(text, i, stop - i);
    } else {
      for (size_t j = i; j < stop;) {
        size_t k = j + 1;
        while (k < stop && std::isdigit(static_cast<unsigned char>(text[k])))
          ++k;
        // "$<digits>" not followed by '\': a counter value ("$0\x" is a process level).
        if (text[j] == '$' && k > j + 1 && (k == stop || text[k] != '\\')) {
          const std::string number = text.substr(j + 1, k - j - 1);
          auto [it, added] = renamed.emplace(number, "");
          if (added)
            it->second = std::to_string(renamed.size());
          out += '$';
          out += it->second;
          j = k;
        } else {
          out += text[j++];
        }
      }
    }
    if (stop < text.size())
      out += text[stop];
    i = stop + 1;
  }
  if (count)
    *count = renamed.size();
  return out;
}

} // namespace by::synthesis
