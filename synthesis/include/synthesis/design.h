// What synthesis reads: the RTL that `brickyard gen` wrote (the command checks the folder and
// its manifest; cli/output_info.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace by::synthesis {

struct Design {
  std::filesystem::path dir;      // the output of brickyard gen; reports go to dir/reports
  std::filesystem::path rtlDir;   // dir/rtl
  std::vector<std::string> files; // in filelist order, relative to rtlDir
  std::string top;                // the manifest's top module
};

} // namespace by::synthesis
