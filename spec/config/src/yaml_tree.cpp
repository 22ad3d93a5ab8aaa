// yaml-cpp -> YamlNode: the one place a YAML parser is called. Keys are checked here (plain
// scalars, each once per mapping) so that every reader gets the same errors.
#include "config/yaml_tree.h"

#include "config/loader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace by::config {

std::string YamlNode::describe() const {
  switch (type) {
  case Type::Map:
    return "a mapping";
  case Type::List:
    return "a list";
  case Type::Null:
    return "nothing";
  case Type::Scalar:
    return "'" + scalar + "'";
  }
  return "an undefined value";
}

namespace {

class TreeBuilder {
public:
  explicit TreeBuilder(std::string file) : file_(std::move(file)) {}

  YamlNode build(const YAML::Node& node, const std::string& path) const {
    YamlNode out;
    out.pos = position(node.Mark());
    switch (node.Type()) {
    case YAML::NodeType::Scalar:
      out.type = YamlNode::Type::Scalar;
      out.scalar = node.Scalar();
      out.quoted = node.Tag() == "!";
      break;
    case YAML::NodeType::Sequence: {
      out.type = YamlNode::Type::List;
      size_t i = 0;
      for (const YAML::Node& item : node)
        out.items.push_back(build(item, path + "[" + std::to_string(i++) + "]"));
      break;
    }
    case YAML::NodeType::Map: {
      out.type = YamlNode::Type::Map;
      std::set<std::string> seen;
      for (auto it = node.begin(); it != node.end(); ++it) {
        const YAML::Node keyNode = it->first; // copies: the iterator hands out temporaries
        const YAML::Node value = it->second;
        if (!keyNode.IsScalar())
          throw ConfigError(file_, keyNode.Mark().line + 1, keyNode.Mark().column + 1, path,
                            "invalid key " + build(keyNode, path).describe() +
                                "; a key must be a plain name");
        const std::string full = path.empty() ? keyNode.Scalar() : path + "." + keyNode.Scalar();
        if (!seen.insert(keyNode.Scalar()).second)
          throw ConfigError(file_, keyNode.Mark().line + 1, keyNode.Mark().column + 1, full,
                            "duplicate key; each key may appear once");
        YamlNode key = build(keyNode, path);
        YamlNode v = build(value, full);
        if (v.isNull())
          v.pos = key.pos; // yaml-cpp marks an empty value oddly; blame its key
        out.entries.emplace_back(std::move(key), std::move(v));
      }
      break;
    }
    default:
      break;
    }
    return out;
  }

private:
  YamlPos position(const YAML::Mark& m) const {
    // yaml-cpp gives -1 for nodes it made up (an empty document); point at the start.
    return {file_, m.line < 0 ? 1 : m.line + 1, m.column < 0 ? 1 : m.column + 1};
  }

  std::string file_;
};

} // namespace

YamlNode parseYamlText(const std::string& text, const std::string& displayName) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(displayName, e.mark.line + 1, e.mark.column + 1, "",
                      "YAML syntax error: " + e.msg +
                          "; the file must be valid YAML (block mappings of 'key: value' lines)");
  }
  return TreeBuilder(displayName).build(root, "");
}

std::string readYamlFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path, 1, 1, "", "is a directory; expected a YAML file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ConfigError(path, 1, 1, "", "cannot open the file: " + std::string(std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

YamlNode parseYamlFile(const std::string& path) {
  return parseYamlText(readYamlFile(path), path);
}

} // namespace by::config
