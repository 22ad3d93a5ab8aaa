// Reading a sweep spec: a walk over the YAML tree with a check per key, so that every mistake
// is one line at its position, as for configs (unknown keys are errors, with the allowed ones).
#include "eval/sweep_spec.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>

namespace by::eval {
namespace {

namespace fs = std::filesystem;
using config::ConfigError;
using config::Override;
using config::YamlNode;
using config::YamlPos;

[[noreturn]] void fail(const YamlPos& at, const std::string& key, const std::string& message) {
  throw ConfigError(at.file, at.line, at.column, key, message);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// The entries of a mapping, each key checked against `allowed`.
void forEachEntry(const YamlNode& map, const std::string& path,
                  const std::vector<std::string>& allowed,
                  const std::function<void(const std::string& key, const YamlNode& value,
                                           const std::string& full)>& visit) {
  if (!map.isMap())
    fail(map.pos, path,
         "got " + map.describe() + "; expected a mapping with the keys " + join(allowed));
  for (const auto& [k, v] : map.entries) {
    const std::string full = path.empty() ? k.scalar : path + "." + k.scalar;
    if (std::find(allowed.begin(), allowed.end(), k.scalar) == allowed.end())
      fail(k.pos, full,
           "unknown key; allowed keys " +
               (path.empty() ? std::string("at the top level") : "in '" + path + "'") + ": " +
               join(allowed));
    visit(k.scalar, v, full);
  }
}

std::string scalarText(const YamlNode& v, const std::string& key, const std::string& what) {
  if (!v.isScalar() || v.scalar.empty())
    fail(v.pos, key, "got " + v.describe() + "; expected " + what);
  return v.scalar;
}

int64_t integer(const YamlNode& v, const std::string& key, int64_t min, int64_t max) {
  const std::string what =
      "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  const std::string s = scalarText(v, key, what);
  bool digits = !v.quoted && s.size() <= 18;
  for (char c : s)
    digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (!digits)
    fail(v.pos, key, "got " + v.describe() + "; expected " + what);
  const int64_t n = std::stoll(s);
  if (n < min || n > max)
    fail(v.pos, key, "value " + s + " is out of range; expected " + what);
  return n;
}

bool boolean(const YamlNode& v, const std::string& key) {
  const std::string s = scalarText(v, key, "true or false");
  if (v.quoted || (s != "true" && s != "false"))
    fail(v.pos, key, "got " + v.describe() + "; expected true or false");
  return s == "true";
}

std::string choice(const YamlNode& v, const std::string& key,
                   const std::vector<std::string>& choices) {
  const std::string s = scalarText(v, key, "one of " + join(choices));
  if (std::find(choices.begin(), choices.end(), s) == choices.end())
    fail(v.pos, key, "got " + v.describe() + "; expected one of " + join(choices));
  return s;
}

bool plainName(const std::string& s) {
  bool ok = !s.empty() && s.size() <= 40;
  for (char c : s)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  return ok;
}

class SpecReader {
public:
  explicit SpecReader(std::string file) : file_(std::move(file)) {
    dir_ = fs::absolute(file_).parent_path();
  }

  SweepSpec read() {
    const YamlNode root = config::parseYamlFile(file_);
    if (root.isNull())
      fail(root.pos, "",
           "the sweep spec is empty; expected a mapping with base, grid or points, "
           "and models");
    SweepSpec s;
    s.file = file_;
    s.name = fs::path(file_).stem().string();
    bool haveBase = false, haveModels = false, havePoints = false;
    forEachEntry(root, "",
                 {"name", "base", "grid", "points", "models", "eval", "slurm", "cache_dir"},
                 [&](const std::string& key, const YamlNode& v, const std::string& full) {
                   if (key == "name") {
                     s.name = scalarText(v, full, "a name");
                     if (!plainName(s.name))
                       fail(v.pos, full,
                            "got " + v.describe() +
                                "; expected letters, digits, '_' and '-' (1 to 40 characters)");
                   } else if (key == "base") {
                     s.base = resolveConfig(scalarText(v, full, "a config name or a YAML path"));
                     s.basePos = v.pos;
                     haveBase = true;
                   } else if (key == "grid") {
                     grid(v, s);
                     havePoints = true;
                   } else if (key == "models") {
                     models(v, s);
                     haveModels = true;
                   } else if (key == "eval") {
                     evalOptions(v, s.eval);
                   } else if (key == "slurm") {
                     slurmOptions(v, s.slurm);
                   } else if (key == "cache_dir") {
                     s.cacheDir = path(scalarText(v, full, "a directory"));
                   }
                 });
    // `points` after the grid, wherever it is written.
    for (const auto& [k, v] : root.entries)
      if (k.scalar == "points") {
        pointList(v, s);
        havePoints = true;
      }
    if (!haveBase)
      fail(root.pos, "base",
           "missing required key; expected a config name (tiny, td8, ...) or "
           "a YAML path");
    if (!havePoints)
      fail(root.pos, "grid",
           "the spec has neither 'grid' nor 'points'; give the config overrides to sweep");
    if (!haveModels)
      fail(root.pos, "models", "missing required key; expected a list of ONNX models");
    s.keys = keys_;
    return s;
  }

private:
  std::string path(const std::string& p) const {
    return fs::absolute(dir_ / p).lexically_normal().string();
  }
  // A name (tiny) stays a name for the command to resolve; a path is relative to the spec.
  std::string resolveConfig(const std::string& text) const {
    if (text.find('/') != std::string::npos || text.find('.') != std::string::npos)
      return path(text);
    return text;
  }

  void noteKey(const std::string& key) {
    if (std::find(keys_.begin(), keys_.end(), key) == keys_.end())
      keys_.push_back(key);
  }

  // A mapping of overrides: dotted keys, or nested mappings that spell the same paths.
  void overrideMap(const YamlNode& map, const std::string& prefix, const std::string& where,
                   std::vector<Override>& out) {
    if (!map.isMap())
      fail(map.pos, where,
           "got " + map.describe() +
               "; expected a mapping of config keys to values (e.g. array.mesh_rows: 8)");
    for (const auto& [k, v] : map.entries) {
      const std::string key = prefix.empty() ? k.scalar : prefix + "." + k.scalar;
      if (v.isMap()) {
        overrideMap(v, key, where, out);
        continue;
      }
      if (key == "name")
        fail(k.pos, key, "the sweep names each point's config itself; 'name' cannot be swept");
      if (!v.isScalar())
        fail(v.isNull() ? k.pos : v.pos, key,
             "got " + v.describe() + "; expected one value of the config key");
      for (const Override& o : out)
        if (o.key == key)
          fail(k.pos, key, "set twice in one point");
      out.push_back({key, k.pos, v});
      noteKey(key);
    }
  }

  // grid: axis -> list of values (one key) or list of override mappings (keys together).
  void grid(const YamlNode& g, SweepSpec& s) {
    if (!g.isMap() || g.entries.empty())
      fail(g.pos, "grid",
           "got " + g.describe() +
               "; expected a mapping of axes: a config key with a list of values, or a label "
               "with a list of override mappings");
    std::vector<std::vector<std::vector<Override>>> axes;
    for (const auto& [k, v] : g.entries) {
      const std::string where = "grid." + k.scalar;
      if (!v.isList() || v.items.empty())
        fail(v.isNull() ? k.pos : v.pos, where,
             "got " + v.describe() +
                 "; expected a non-empty list of values ([4, 8]) or of "
                 "override mappings ([{array.mesh_rows: 4, ...}, ...])");
      const bool sets = v.items.front().isMap();
      std::vector<std::vector<Override>> axis;
      for (const YamlNode& item : v.items) {
        std::vector<Override> o;
        if (sets) {
          overrideMap(item, "", where, o);
        } else {
          if (!item.isScalar())
            fail(item.pos, where,
                 "got " + item.describe() +
                     "; an axis is a list of values or a list of mappings, not both");
          if (k.scalar == "name")
            fail(k.pos, "name",
                 "the sweep names each point's config itself; 'name' cannot be "
                 "swept");
          o.push_back({k.scalar, k.pos, item});
          noteKey(k.scalar);
        }
        axis.push_back(std::move(o));
      }
      axes.push_back(std::move(axis));
    }
    // The product, the first axis varying slowest (like nested loops in the order written).
    std::vector<size_t> at(axes.size(), 0);
    for (;;) {
      SweepPointSpec p;
      p.pos = g.pos;
      for (size_t a = 0; a < axes.size(); ++a)
        p.overrides.insert(p.overrides.end(), axes[a][at[a]].begin(), axes[a][at[a]].end());
      for (size_t i = 0; i < p.overrides.size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if (p.overrides[i].key == p.overrides[j].key)
            fail(p.overrides[i].keyPos, p.overrides[i].key,
                 "set by two grid axes; each key may belong to one axis");
      s.points.push_back(std::move(p));
      size_t a = axes.size();
      while (a > 0 && ++at[a - 1] == axes[a - 1].size())
        at[--a] = 0;
      if (a == 0)
        break;
      if (s.points.size() > 100000)
        fail(g.pos, "grid", "more than 100000 points");
    }
  }

  void pointList(const YamlNode& list, SweepSpec& s) {
    if (!list.isList() || list.items.empty())
      fail(list.pos, "points",
           "got " + list.describe() + "; expected a non-empty list of override mappings");
    for (size_t i = 0; i < list.items.size(); ++i) {
      SweepPointSpec p;
      p.pos = list.items[i].pos;
      if (!(list.items[i].isMap() && list.items[i].entries.empty())) // {} is the base alone
        overrideMap(list.items[i], "", "points[" + std::to_string(i) + "]", p.overrides);
      s.points.push_back(std::move(p));
    }
  }

  void models(const YamlNode& list, SweepSpec& s) {
    if (!list.isList() || list.items.empty())
      fail(list.pos, "models",
           "got " + list.describe() +
               "; expected a non-empty list of ONNX models (paths, or "
               "mappings with path, input, calib, name)");
    for (size_t i = 0; i < list.items.size(); ++i) {
      const YamlNode& item = list.items[i];
      const std::string where = "models[" + std::to_string(i) + "]";
      SweepModel m;
      m.pos = item.pos;
      if (item.isScalar()) {
        m.path = path(item.scalar);
      } else {
        forEachEntry(item, where, {"path", "input", "calib", "name"},
                     [&](const std::string& key, const YamlNode& v, const std::string& full) {
                       if (key == "path") {
                         m.path = path(scalarText(v, full, "an ONNX file"));
                         m.pos = v.pos;
                       } else if (key == "input") {
                         m.input = path(scalarText(v, full, "an .npy file"));
                       } else if (key == "name") {
                         m.name = scalarText(v, full, "a name");
                         if (!plainName(m.name))
                           fail(v.pos, full,
                                "got " + v.describe() + "; expected letters, digits, '_' and '-'");
                       } else {
                         const std::vector<YamlNode> files =
                             v.isList() ? v.items : std::vector<YamlNode>{v};
                         for (const YamlNode& f : files)
                           m.calib.push_back(path(scalarText(f, full, "an .npy file")));
                       }
                     });
        if (m.path.empty())
          fail(item.pos, where + ".path", "missing required key; expected an ONNX file");
      }
      if (m.name.empty()) {
        m.name = fs::path(m.path).stem().string();
        std::replace_if(
            m.name.begin(), m.name.end(),
            [](char c) { return !(std::isalnum(static_cast<unsigned char>(c)) || c == '-'); }, '_');
      }
      for (const SweepModel& other : s.models)
        if (other.name == m.name)
          fail(item.pos, where, "a second model named '" + m.name + "'; give one of them a 'name'");
      s.models.push_back(std::move(m));
    }
  }

  void evalOptions(const YamlNode& map, SweepEvalOptions& e) {
    forEachEntry(map, "eval",
                 {"model", "area", "seed", "calib_random", "hal", "max_cycles", "jobs"},
                 [&](const std::string& key, const YamlNode& v, const std::string& full) {
                   if (key == "model")
                     e.model = choice(v, full, {"rtl", "func"});
                   else if (key == "area")
                     e.area = boolean(v, full);
                   else if (key == "seed")
                     e.seed = uint64_t(integer(v, full, 0, int64_t(1) << 53));
                   else if (key == "calib_random")
                     e.calibRandom = int(integer(v, full, 1, 1 << 20));
                   else if (key == "hal")
                     e.hal = choice(v, full, {"rocc", "mmio"});
                   else if (key == "max_cycles")
                     e.maxCycles = uint64_t(integer(v, full, 0, int64_t(1) << 53));
                   else
                     e.jobs = int(integer(v, full, 1, 1024));
                 });
  }

  void slurmOptions(const YamlNode& map, SweepSlurmOptions& o) {
    auto lines = [](const YamlNode& v, const std::string& full) {
      std::vector<std::string> out;
      if (v.isScalar()) {
        // A block scalar (setup: |) holds several lines.
        std::string line;
        for (char c : v.scalar + "\n")
          if (c == '\n') {
            if (!line.empty())
              out.push_back(line);
            line.clear();
          } else {
            line += c;
          }
        return out;
      }
      if (!v.isList())
        fail(v.pos, full, "got " + v.describe() + "; expected a list of lines");
      for (const YamlNode& item : v.items)
        out.push_back(scalarText(item, full, "a line of text"));
      return out;
    };
    forEachEntry(map, "slurm",
                 {"partition", "time", "cpus_per_task", "account", "sbatch_options", "setup",
                  "poll_seconds"},
                 [&](const std::string& key, const YamlNode& v, const std::string& full) {
                   if (key == "partition")
                     o.partition = scalarText(v, full, "a partition name");
                   else if (key == "time")
                     o.time = scalarText(v, full, "a time limit (e.g. \"00:30:00\")");
                   else if (key == "account")
                     o.account = scalarText(v, full, "an account name");
                   else if (key == "cpus_per_task")
                     o.cpusPerTask = int(integer(v, full, 1, 1024));
                   else if (key == "poll_seconds")
                     o.pollSeconds = int(integer(v, full, 1, 3600));
                   else if (key == "sbatch_options")
                     o.sbatchOptions = lines(v, full);
                   else
                     o.setup = lines(v, full);
                 });
    for (const std::string& opt : o.sbatchOptions)
      if (opt.rfind("--array", 0) == 0 || opt.rfind("--output", 0) == 0 ||
          opt.rfind("--error", 0) == 0)
        fail(map.pos, "slurm.sbatch_options",
             "'" + opt +
                 "' is set by the sweep (the array is its points, the logs go to "
                 "OUT_DIR/slurm/logs)");
  }

  std::string file_;
  fs::path dir_;
  std::vector<std::string> keys_;
};

} // namespace

SweepSpec loadSweepSpec(const std::string& path) {
  return SpecReader(path).read();
}

std::string describeOverrides(const std::vector<config::Override>& overrides) {
  if (overrides.empty())
    return "base config";
  std::string out;
  for (const config::Override& o : overrides)
    out += (out.empty() ? "" : ", ") + o.key + "=" + o.value.scalar;
  return out;
}

} // namespace by::eval
