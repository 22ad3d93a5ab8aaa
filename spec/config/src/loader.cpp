// YAML -> Config. Walks the document against the schema table, so that every key is checked
// for existence, type and range before any cross-key rule runs; the first problem found is
// reported as one line with the file position of the offending key or value.
#include "config/loader.h"

#include "config/derived.h"
#include "config/schema.h"
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
#include <yaml-cpp/yaml.h>

namespace by::config {

ConfigError::ConfigError(std::string file, int line, int column, std::string key,
                         std::string message)
    : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                         ": error: " + (key.empty() ? "" : key + ": ") + message),
      file_(std::move(file)), line_(line), column_(column), key_(std::move(key)),
      message_(std::move(message)) {}

namespace {

std::string describeNode(const YAML::Node& node) {
  switch (node.Type()) {
  case YAML::NodeType::Map:
    return "a mapping";
  case YAML::NodeType::Sequence:
    return "a list";
  case YAML::NodeType::Null:
    return "nothing";
  case YAML::NodeType::Scalar:
    return "'" + node.Scalar() + "'";
  default:
    return "an undefined value";
  }
}

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

  Config load(const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
      fail(1, 1, "", "the file is empty; expected a mapping with the keys " + keyList(""));
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      fail(e.mark.line + 1, e.mark.column + 1, "",
           "YAML syntax error: " + e.msg +
               "; the file must be valid YAML (block mappings of "
               "'key: value' lines)");
    }
    if (root.IsNull())
      fail(1, 1, "",
           "the file holds no settings (only comments?); expected a mapping with the "
           "keys " +
               keyList(""));
    if (!root.IsMap())
      failAt(root, "",
             "the top level is " + describeNode(root) + "; expected a mapping with the keys " +
                 keyList(""));
    rootMark_ = root.Mark();
    walkMap(root, "");
    Config config;
    for (const FieldSpec& f : schemaFields()) {
      auto it = values_.find(f.key);
      if (it != values_.end()) {
        f.set(config, it->second);
      } else if (f.defaultValue) {
        f.set(config, *f.defaultValue);
      } else {
        YAML::Mark m = nearestMark(f.key);
        fail(m.line + 1, m.column + 1, f.key, "missing required key; expected " + f.allowed());
      }
    }
    validateAcrossKeys(config, [this](const std::string& key, const std::string& message) {
      YAML::Mark m = nearestMark(key);
      const FieldSpec* f = findField(key);
      std::string note;
      if (f && f->defaultValue && !values_.count(key))
        note = " (" + key + " is not set: its default is " + *f->defaultValue + ")";
      fail(m.line + 1, m.column + 1, key, message + note);
    });
    return config;
  }

private:
  [[noreturn]] void fail(int line, int col, const std::string& key, const std::string& msg) {
    throw ConfigError(file_, line, col, key, msg);
  }
  [[noreturn]] void failAt(const YAML::Node& node, const std::string& key, const std::string& msg) {
    fail(node.Mark().line + 1, node.Mark().column + 1, key, msg);
  }

  std::string keyList(const std::string& parent) const {
    std::string out;
    for (const std::string& k : childKeys(parent))
      out += (out.empty() ? "" : ", ") + k;
    return out;
  }

  // Position to blame for `key`: the key itself if present, else its closest present parent.
  YAML::Mark nearestMark(std::string key) const {
    while (!key.empty()) {
      auto it = marks_.find(key);
      if (it != marks_.end())
        return it->second;
      size_t dot = key.rfind('.');
      key = dot == std::string::npos ? "" : key.substr(0, dot);
    }
    return rootMark_;
  }

  void walkMap(const YAML::Node& map, const std::string& path) {
    std::map<std::string, bool> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node keyNode = it->first; // copies: the iterator hands out temporaries
      const YAML::Node value = it->second;
      if (!keyNode.IsScalar())
        failAt(keyNode, path,
               "invalid key " + describeNode(keyNode) + "; a key must be a plain name");
      const std::string key = keyNode.Scalar();
      const std::string full = joinKey(path, key);
      if (seen[key])
        failAt(keyNode, full, "duplicate key; each key may appear once");
      seen[key] = true;
      marks_[full] = keyNode.Mark();
      if (findSection(full)) {
        if (!value.IsMap())
          failAt(value.IsNull() ? keyNode : value, full,
                 "got " + describeNode(value) + "; expected a mapping with the keys " +
                     keyList(full));
        walkMap(value, full);
      } else if (const FieldSpec* field = findField(full)) {
        marks_[full] = value.IsNull() ? keyNode.Mark() : value.Mark();
        values_[full] = parseScalar(*field, value.IsNull() ? keyNode : value, value);
      } else {
        failAt(keyNode, full, unknownKeyMessage(path, key));
      }
    }
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

  std::string parseScalar(const FieldSpec& f, const YAML::Node& where, const YAML::Node& value) {
    auto bad = [&](const std::string& got) -> std::string {
      failAt(where, f.key, "invalid value " + got + "; expected " + f.allowed());
    };
    if (!value.IsScalar())
      bad(describeNode(value));
    const std::string s = value.Scalar();
    const bool quoted = value.Tag() == "!";
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
        failAt(where, f.key, "value " + s + " is out of range; expected " + f.allowed());
      if (f.powerOfTwo && !isPowerOfTwo(v))
        failAt(where, f.key, "value " + s + " is not a power of two; expected " + f.allowed());
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
  YAML::Mark rootMark_;
  std::map<std::string, std::string> values_;
  std::map<std::string, YAML::Mark> marks_;
};

} // namespace

Config loadConfigText(const std::string& text, const std::string& displayName) {
  return Loader(displayName).load(text);
}

Config loadConfigFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path, 1, 1, "", "is a directory; expected a YAML file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ConfigError(path, 1, 1, "", "cannot open the file: " + std::string(std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return loadConfigText(text.str(), path);
}

} // namespace by::config
