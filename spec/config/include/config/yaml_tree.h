// A parsed YAML document as a plain tree with file positions, for the other YAML formats of
// Brickyard (the sweep spec): the config component stays the only place that links a YAML
// parser, and every reader of a YAML file can still report FILE:LINE:COL.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace by::config {

/// Where a node starts (1-based line and column).
struct YamlPos {
  std::string file;
  int line = 1;
  int column = 1;
};

struct YamlNode {
  enum class Type { Null, Scalar, List, Map };
  Type type = Type::Null;
  std::string scalar;          // Scalar: its text
  bool quoted = false;         // Scalar: written in quotes ("16" is a string, 16 a number)
  std::vector<YamlNode> items; // List
  std::vector<std::pair<YamlNode, YamlNode>> entries; // Map, in file order; keys are scalars
  YamlPos pos;

  bool isMap() const { return type == Type::Map; }
  bool isList() const { return type == Type::List; }
  bool isScalar() const { return type == Type::Scalar; }
  bool isNull() const { return type == Type::Null; }
  /// "a mapping", "a list", "nothing" or the scalar in quotes, for error messages.
  std::string describe() const;
};

/// Parses `text` (`displayName` is FILE in errors). Throws ConfigError (config/loader.h) on a
/// syntax error, a key that is not a plain scalar or a key that appears twice in a mapping.
YamlNode parseYamlText(const std::string& text, const std::string& displayName);
/// Same, from a file.
YamlNode parseYamlFile(const std::string& path);
/// The text of the YAML file `path`; throws ConfigError (FILE:1:1) when it is a directory or
/// cannot be read. The one reader of config-format files (configs, sweep specs).
std::string readYamlFile(const std::string& path);

} // namespace by::config
