// Loading a YAML file into a validated Config. The only place that sees YAML.
#pragma once

#include "config/config.h"
#include "config/yaml_tree.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace by::config {

/// A rejected configuration. what() is one line:
///   FILE:LINE:COL: error: KEY: WHAT IS WRONG; WHAT IS ALLOWED
class ConfigError : public std::runtime_error {
public:
  ConfigError(std::string file, int line, int column, std::string key, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

private:
  std::string file_;
  int line_;
  int column_;
  std::string key_;
  std::string message_;
};

/// Parses, fills defaults and validates (per key and across keys). Throws ConfigError.
Config loadConfigFile(const std::string& path);
/// Same, from text; `displayName` is used as FILE in errors.
Config loadConfigText(const std::string& text, const std::string& displayName);

/// One key set on top of a base config (a sweep point): `key` a dotted path
/// ("array.mesh_rows"), `value` the scalar as written where it was written.
struct Override {
  std::string key;
  YamlPos keyPos;
  YamlNode value;
};

/// The base file with `overrides` applied (later ones win), checked exactly as
/// loadConfigFile checks a file: an unknown key or a bad value is reported at the override's
/// position, a cross-key rule at the override of the key it names, or else where the base file
/// sets that key. Throws ConfigError.
Config loadConfigWithOverrides(const std::string& basePath, const std::vector<Override>& overrides);

} // namespace by::config
