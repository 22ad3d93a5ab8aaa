#include "command.h"
#include "output_info.h"
#include "support/files.h"
#include "support/process.h"

#include <cstdio>
#include <sstream>

namespace by::cli {

namespace {

struct ToolRun {
  std::string name;
  int status = 0;
  int warnings = 0;
  int errors = 0;
  std::string output; // everything the tool printed (kept in reports/lint.txt)
  std::string shown;  // what the terminal gets: the output less the notes that are no finding
};

// Verilator prints one "%Warning-KIND:" or "%Error:" line per message (plus context lines).
void countVerilator(ToolRun& r) {
  std::istringstream lines(r.output);
  std::string l;
  r.shown = r.output;
  while (std::getline(lines, l)) {
    if (l.rfind("%Warning", 0) == 0)
      ++r.warnings;
    else if (l.rfind("%Error", 0) == 0 && l.find("Exiting due to") == std::string::npos)
      ++r.errors;
  }
}

// Icarus prints "file:line: warning: ...", "...: error: ..." and "sorry: ..." messages. One
// note is not a finding: Icarus 11 does not check `unique case` (the RTL uses it where the
// labels are distinct constants, for synthesis and for Verilator's checks) and says so once
// per statement; the RTL is the same without the check.
void countIcarus(ToolRun& r) {
  std::istringstream lines(r.output);
  std::string l;
  while (std::getline(lines, l)) {
    if (l.find("Case unique/unique0 qualities are ignored") != std::string::npos)
      continue;
    r.shown += l + "\n";
    if (l.find("error") != std::string::npos || l.find("I give up") != std::string::npos)
      ++r.errors;
    else if (!l.empty())
      ++r.warnings; // warnings, "sorry" notes and anything else: the RTL must compile silently
  }
}

/// Runs a tool in `cwd`, its standard output and error together in `output`.
int runTool(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
            std::string& output) {
  process::Options options;
  options.cwd = cwd;
  options.output = process::Output::CaptureMerged;
  const process::Result r = process::run(argv, options);
  output = r.out + r.err; // err holds why a program that never ran did not
  return r.status;
}

} // namespace

int runLint(const std::vector<std::string>& args) {
  std::string dir, top;
  ArgParser p("lint", "OUT/",
              "Lints the RTL in OUT/ (written by brickyard gen) with verilator --lint-only -Wall\n"
              "and compiles it with Icarus Verilog (iverilog -g2012 -Wall). Every message counts:\n"
              "the exit code is 0 only when both tools are silent. The full tool output goes to\n"
              "OUT/reports/lint.txt.");
  p.positional("OUT/", "a directory written by brickyard gen", &dir);
  p.option("--top", "MODULE", "top module (default: the manifest's top)", &top);
  if (!p.parse(args))
    return kExitOk;
  const GeneratedOutput out = readGeneratedOutput(dir);
  if (top.empty())
    top = out.top;
  process::require("verilator", "verilator");
  process::require("iverilog", "iverilog");

  ToolRun verilator;
  verilator.name = "verilator --lint-only -Wall";
  verilator.status =
      runTool({"verilator", "--lint-only", "-Wall", "--top-module", top, "-f", "filelist.f"},
              out.rtlDir, verilator.output);
  countVerilator(verilator);
  if (verilator.status != 0 && verilator.warnings + verilator.errors == 0)
    verilator.errors = 1;

  ToolRun icarus;
  icarus.name = "iverilog -g2012 -Wall";
  icarus.status =
      runTool({"iverilog", "-g2012", "-Wall", "-o", "/dev/null", "-s", top, "-c", "filelist.f"},
              out.rtlDir, icarus.output);
  countIcarus(icarus);
  if (icarus.status != 0 && icarus.errors == 0)
    icarus.errors = 1;

  std::string report;
  for (const ToolRun* r : {&verilator, &icarus}) {
    report += "== " + r->name + " (exit " + std::to_string(r->status) + ", " +
              std::to_string(r->warnings) + " warnings, " + std::to_string(r->errors) +
              " errors)\n" + r->output + "\n";
    if (!r->shown.empty())
      std::fputs(r->shown.c_str(), stderr);
  }
  std::filesystem::create_directories(out.dir / "reports");
  support::writeFileAtomically(out.dir / "reports" / "lint.txt", report);
  const int total = verilator.warnings + verilator.errors + icarus.warnings + icarus.errors;
  std::printf("brickyard lint: %s (top %s, %zu files): verilator %d warnings %d errors, "
              "iverilog %d warnings %d errors\n",
              dir.c_str(), top.c_str(), out.rtlFiles.size(), verilator.warnings, verilator.errors,
              icarus.warnings, icarus.errors);
  return total == 0 ? kExitOk : kExitFailure;
}

} // namespace by::cli
