#include "eval/plots.h"

#include "embedded_scripts.h"
#include "support/process.h"
#include "support/tail.h"

#include <filesystem>
#include <stdexcept>

namespace by::eval {

std::string drawPlots(const std::string& name, const std::vector<std::string>& args) {
  const EmbeddedFile* script = nullptr;
  for (const EmbeddedFile& f : plotScripts())
    if (name == f.path)
      script = &f;
  if (!script)
    throw std::logic_error("no embedded plot script " + name);
  const std::string python =
      std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  process::require(python, "python3-matplotlib");
  // `python3 -c TEXT ARGS`: sys.argv is ["-c", ARGS...], as the scripts expect.
  std::vector<std::string> argv = {python, "-c", script->text};
  argv.insert(argv.end(), args.begin(), args.end());
  process::Options po;
  po.output = process::Output::CaptureMerged;
  const process::Result r = process::run(argv, po);
  if (r.status != 0)
    throw std::runtime_error("the plots failed (" + name +
                             "): " + support::lastLines(r.out + r.err, 6));
  return r.out;
}

} // namespace by::eval
