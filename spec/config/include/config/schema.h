// The configuration schema: one table that binds every YAML key to its typed field, default,
// allowed range and documentation. The loader, the canonical form (config hash, manifest
// echo) and the generated reference in docs/config.md are all driven by this table.
#pragma once

#include "config/config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace by::config {

enum class Kind { Int, Bool, Enum, String };

struct FieldSpec {
  std::string key; // dotted path, e.g. "array.mesh_rows"
  Kind kind = Kind::Int;
  std::string doc;
  std::optional<std::string> defaultValue; // canonical text; nullopt = required key
  int64_t min = 0;                         // Int only
  int64_t max = 0;                         // Int only
  bool powerOfTwo = false;                 // Int only
  std::vector<std::string> choices;        // Enum only, in the order of the C++ enum

  // Typed access. Exactly one group is set, matching `kind`.
  int& (*intRef)(Config&) = nullptr;
  bool& (*boolRef)(Config&) = nullptr;
  std::string& (*stringRef)(Config&) = nullptr;
  void (*setEnum)(Config&, int index) = nullptr;
  int (*getEnum)(const Config&) = nullptr;

  /// Writes a canonical value (already checked by the loader) into the config.
  void set(Config& config, const std::string& canonical) const;
  /// Reads the field back in canonical text form ("16", "true", "ws", "tiny").
  std::string get(const Config& config) const;
  /// Human-readable statement of what is allowed, used in error messages and in the docs.
  std::string allowed() const;
};

struct SectionSpec {
  std::string key; // dotted path of a mapping, e.g. "memory.scratchpad"
  std::string doc;
};

const std::vector<FieldSpec>& schemaFields();
const std::vector<SectionSpec>& schemaSections();

const FieldSpec* findField(const std::string& key);
const SectionSpec* findSection(const std::string& key);

/// Canonical "key = value" text of every field, in schema order. Its hash is the config hash.
std::string canonicalText(const Config& config);
/// 64-bit FNV-1a of canonicalText(), as 16 lowercase hex digits.
std::string configHash(const Config& config);

/// The config as a YAML document, every key in schema order (defaults written out), that
/// loads back to the same config; each line of `comment` becomes a leading '# ' line.
std::string configToYaml(const Config& config, const std::string& comment);

/// Markdown reference of the schema (the body of docs/config.md between its markers).
std::string schemaReferenceMarkdown();

} // namespace by::config
