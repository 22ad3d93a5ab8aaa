// YAML -> Config. Walks the document (as a YamlNode tree) against the schema table, so that every
// key is checked for existence, type and range before any cross-key rule runs; the first problem
// found is reported as one line with the file position of the offending key or value.
#include "config/loader.h"

#include "config/derived.h"
#include "config/schema.h"
#include "config/yaml_tree.h"
#include "validate.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace by::config {

ConfigError::ConfigError(std::string file, int line, int column, std::string key,
                         std::string message)
    : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                         ": error: " + (key.empty() ? "" : key + ": ") + message),
      file_(std::move(file)), line_(line), column_(column), key_(std::move(key)),
      message_(std::move(message)) {}

namespace {

// Levenshtein distance, for "did you mean" hints on typo'd keys.
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string joinKey(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

// Keys allowed directly under `parent` (sections and fields), in schema order.
std::vector<std::string> childKeys(const std::string& parent) {
  std::vector<std::string> keys;
  const std::string prefix = parent.empty() ? "" : parent + ".";
  for (const FieldSpec& f : schemaFields()) {
    if (f.key.rfind(prefix, 0) != 0)
      continue;
    const std::string rest = f.key.substr(prefix.size());
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(keys.begin(), keys.end(), child) == keys.end())
      keys.push_back(child);
  }
  return keys;
}

class Loader {
public:
  Loader(std::string file) : file_(std::move(file)) {}

  /// The base document; `overrides` are applied on top, each blamed at its own position.
  Config load(const std::string& text, const std::vector<Override>& overrides = {}) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
      fail({file_, 1, 1}, "", "the file is empty; expected a mapping with the keys " + keyList(""));
    const YamlNode root = parseYamlText(text, file_);
    if (root.isNull())
      fail({file_, 1, 1}, "",
           "the file holds no settings (only comments?); expected a mapping with the "
           "keys " +
               keyList(""));
    if (!root.isMap())
      fail(root.pos, "",
           "the top level is " + root.describe() + "; expected a mapping with the keys " +
               keyList(""));
    rootPos_ = root.pos;
    walkMap(root, "");
    for (const Override& o : overrides)
      applyOverride(o);
    Config config;
    for (const FieldSpec& f : schemaFields()) {
      auto it = values_.find(f.key);
      if (it != values_.end()) {
        f.set(config, it->second);
      } else if (f.defaultValue) {
        f.set(config, *f.defaultValue);
      } else {
        fail(nearestPos(f.key), f.key, "missing required key; expected " + f.allowed());
      }
    }
    validateAcrossKeys(config, [this](const std::string& key, const std::string& message) {
      const FieldSpec* f = findField(key);
      std::string note;
      if (f && f->defaultValue && !values_.count(key))
        note = " (" + key + " is not set: its default is " + *f->defaultValue + ")";
      fail(nearestPos(key), key, message + note);
    });
    return config;
  }

private:
  [[noreturn]] void fail(const YamlPos& at, const std::string& key, const std::string& msg) {
    throw ConfigError(at.file, at.line, at.column, key, msg);
  }

  std::string keyList(const std::string& parent) const {
    std::string out;
    for (const std::string& k : childKeys(parent))
      out += (out.empty() ? "" : ", ") + k;
    return out;
  }

  // Position to blame for `key`: the key itself if present, else its closest present parent.
  YamlPos nearestPos(std::string key) const {
    while (!key.empty()) {
      auto it = positions_.find(key);
      if (it != positions_.end())
        return it->second;
      size_t dot = key.rfind('.');
      key = dot == std::string::npos ? "" : key.substr(0, dot);
    }
    return rootPos_;
  }

  void walkMap(const YamlNode& map, const std::string& path) {
    for (const auto& [keyNode, value] : map.entries) {
      const std::string& key = keyNode.scalar;
      const std::string full = joinKey(path, key);
      positions_[full] = keyNode.pos;
      if (findSection(full)) {
        if (!value.isMap())
          fail(value.pos, full,
               "got " + value.describe() + "; expected a mapping with the keys " + keyList(full));
        walkMap(value, full);
      } else if (const FieldSpec* field = findField(full)) {
        positions_[full] = value.pos;
        values_[full] = parseScalar(*field, value);
      } else {
        fail(keyNode.pos, full, unknownKeyMessage(path, key));
      }
    }
  }

  // A dotted key set on top of the base: the same checks as a key of the file.
  void applyOverride(const Override& o) {
    if (findSection(o.key))
      fail(o.keyPos, o.key,
           "is a section, not a key; set its keys one by one (" + keyList(o.key) + ")");
    const FieldSpec* field = findField(o.key);
    if (!field) {
      const size_t dot = o.key.rfind('.');
      const std::string parent = dot == std::string::npos ? "" : o.key.substr(0, dot);
      if (!parent.empty() && !findSection(parent))
        fail(o.keyPos, o.key,
             "unknown key; '" + parent + "' is not a section (sections: " + sectionList() + ")");
      fail(o.keyPos, o.key, unknownKeyMessage(parent, o.key.substr(dot + 1)));
    }
    positions_[o.key] = o.value.pos;
    values_[o.key] = parseScalar(*field, o.value);
  }

  std::string sectionList() const {
    std::string out;
    for (const SectionSpec& s : schemaSections())
      out += (out.empty() ? "" : ", ") + s.key;
    return out;
  }

  std::string unknownKeyMessage(const std::string& path, const std::string& key) const {
    std::string best;
    size_t bestDist = 3; // suggest only close matches
    for (const std::string& k : childKeys(path)) {
      size_t d = editDistance(key, k);
      if (d < bestDist) {
        bestDist = d;
        best = k;
      }
    }
    std::string msg = "unknown key";
    if (!best.empty())
      msg += " (did you mean '" + best + "'?)";
    msg += "; allowed keys " +
           (path.empty() ? std::string("at the top level") : "in '" + path + "'") + ": " +
           keyList(path);
    return msg;
  }

  std::string parseScalar(const FieldSpec& f, const YamlNode& value) {
    auto bad = [&](const std::string& got) -> std::string {
      fail(value.pos, f.key, "invalid value " + got + "; expected " + f.allowed());
    };
    if (!value.isScalar())
      bad(value.describe());
    const std::string& s = value.scalar;
    const bool quoted = value.quoted;
    switch (f.kind) {
    case Kind::Int: {
      if (quoted)
        bad("the quoted string \"" + s + "\"");
      errno = 0;
      char* end = nullptr;
      long long v = std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' ||
          !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '+'))
        bad("'" + s + "'");
      if (errno == ERANGE || v < f.min || v > f.max)
        fail(value.pos, f.key, "value " + s + " is out of range; expected " + f.allowed());
      if (f.powerOfTwo && !isPowerOfTwo(v) && !(v == 0 && f.min == 0))
        fail(value.pos, f.key, "value " + s + " is not a power of two; expected " + f.allowed());
      return std::to_string(v);
    }
    case Kind::Bool:
      if (quoted || (s != "true" && s != "false"))
        bad("'" + s + "'");
      return s;
    case Kind::Enum:
      if (std::find(f.choices.begin(), f.choices.end(), s) == f.choices.end())
        bad("'" + s + "'");
      return s;
    case Kind::String: {
      bool ok = !s.empty() && s.size() <= 40;
      for (char ch : s)
        ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-');
      if (!ok)
        bad("'" + s + "'");
      return s;
    }
    }
    return s;
  }

  std::string file_;
  YamlPos rootPos_;
  std::map<std::string, std::string> values_;
  std::map<std::string, YamlPos> positions_;
};

} // namespace

Config loadConfigText(const std::string& text, const std::string& displayName) {
  return Loader(displayName).load(text);
}

Config loadConfigFile(const std::string& path) {
  return loadConfigText(readYamlFile(path), path);
}

Config loadConfigWithOverrides(const std::string& basePath,
                               const std::vector<Override>& overrides) {
  return Loader(basePath).load(readYamlFile(basePath), overrides);
}

} // namespace by::config
