#include "output_info.h"

#include "command.h"
#include "support/files.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace by::cli {

GeneratedOutput readGeneratedOutput(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir))
    throw UsageError(dir + " is not a directory; expected the output of brickyard gen");
  if (!support::isBrickyardOutput(dir))
    throw UsageError(dir + " has no Brickyard manifest.json; expected the output of brickyard gen");
  GeneratedOutput out;
  out.dir = fs::path(dir);
  out.rtlDir = out.dir / "rtl";
  nlohmann::json manifest;
  try {
    std::ifstream in(out.dir / "manifest.json");
    manifest = nlohmann::json::parse(in);
    out.top = manifest.at("top").get<std::string>();
    out.configName = manifest.at("config_name").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    throw UsageError((out.dir / "manifest.json").string() + " is damaged: " + e.what());
  }
  std::ifstream list(out.rtlDir / "filelist.f");
  if (!list)
    throw UsageError((out.rtlDir / "filelist.f").string() + " is missing; re-run brickyard gen");
  std::string line;
  while (std::getline(list, line))
    if (!line.empty())
      out.rtlFiles.push_back(line);
  return out;
}

} // namespace by::cli
