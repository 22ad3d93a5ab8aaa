// The PNG plots of eval and sweep: small matplotlib scripts (scripts/eval_plots.py,
// scripts/sweep_plots.py) compiled into brickyard, so that an installed brickyard draws them
// without the source tree. They run with Debian's interpreter, where python3-matplotlib
// installs (another python3 may come first on PATH, e.g. a virtual environment without it).
#pragma once

#include <string>
#include <vector>

namespace by::eval {

/// Runs the embedded script `name` ("eval_plots.py", "sweep_plots.py") with `args` and returns
/// what it printed. Throws std::runtime_error with the end of its output when it fails.
std::string drawPlots(const std::string& name, const std::vector<std::string>& args);

} // namespace by::eval
