// by::process::run (support/process.h): what each output mode captures, exit statuses,
// the environment and working directory the child gets, and programs that cannot be started.
#include "support/process.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

namespace by::test {
namespace {

namespace fs = std::filesystem;
using process::Output;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(BY_BINARY_DIR) / "test-output" / "process_test";
  fs::create_directories(dir);
  return dir / name;
}

TEST(Process, CapturesOutAndErrApart) {
  const process::Result r = process::run({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(Process, MergedKeepsTheOrderTheChildWrote) {
  process::Options o;
  o.output = Output::CaptureMerged;
  const process::Result r =
      process::run({"sh", "-c", "echo one; echo two >&2; echo three; echo four >&2"}, o);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "one\ntwo\nthree\nfour\n");
  EXPECT_EQ(r.err, "");
}

TEST(Process, LargeOutputOnBothStreamsDoesNotBlock) {
  // 1 MiB on each stream: more than a pipe holds, written alternately.
  const process::Result r = process::run({"sh", "-c",
                                          "i=0; while [ $i -lt 16 ]; do head -c 65536 /dev/zero; "
                                          "head -c 65536 /dev/zero >&2; i=$((i+1)); done"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.size(), 1u << 20);
  EXPECT_EQ(r.err.size(), 1u << 20);
}

TEST(Process, AppendsToTheLog) {
  const fs::path log = scratch("append.log");
  fs::remove(log);
  { std::ofstream(log) << "before\n"; }
  process::Options o;
  o.output = Output::AppendToLog;
  o.log = log;
  EXPECT_EQ(process::run({"sh", "-c", "echo a; echo b >&2"}, o).status, 0);
  EXPECT_EQ(process::run({"sh", "-c", "echo c; exit 1"}, o).status, 1);
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "before\na\nb\nc\n");
}

TEST(Process, EnvironmentAndWorkingDirectory) {
  process::Options o;
  o.env = {"BY_PROCESS_TEST=added", "HOME=/replaced"};
  o.cwd = scratch("");
  const process::Result r = process::run({"sh", "-c", "echo $BY_PROCESS_TEST $HOME; pwd"}, o);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "added /replaced\n" + fs::canonical(o.cwd).string() + "\n");
  // Our own environment is passed on.
  setenv("BY_PROCESS_TEST_OURS", "ours", 1);
  EXPECT_EQ(process::run({"sh", "-c", "echo $BY_PROCESS_TEST_OURS"}).out, "ours\n");
}

TEST(Process, StandardInputIsEmpty) {
  const process::Result r = process::run({"sh", "-c", "cat; echo end"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "end\n");
}

TEST(Process, KilledBySignalIs128PlusTheSignal) {
  EXPECT_EQ(process::run({"sh", "-c", "kill -9 $$"}).status, 128 + 9);
}

TEST(Process, ProgramsThatCannotStartGive127WithTheReason) {
  process::Result r = process::run({"by-no-such-program-here", "x"});
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.err.find("by-no-such-program-here"), std::string::npos) << r.err;
  r = process::run({"/no/such/dir/prog"});
  EXPECT_EQ(r.status, 127);
  process::Options o;
  o.cwd = "/no/such/directory";
  r = process::run({"true"}, o);
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.err.find("/no/such/directory"), std::string::npos) << r.err;
  // The reason goes to the log too.
  const fs::path log = scratch("missing.log");
  fs::remove(log);
  o = {};
  o.output = Output::AppendToLog;
  o.log = log;
  EXPECT_EQ(process::run({"by-no-such-program-here"}, o).status, 127);
  EXPECT_TRUE(fs::file_size(log) > 0);
}

TEST(Process, FindLooksOnPathOrTakesAPath) {
  EXPECT_EQ(process::find("sh").filename(), "sh");
  EXPECT_TRUE(process::find("by-no-such-program-here").empty());
  EXPECT_EQ(process::find("/bin/sh"), fs::path("/bin/sh"));
  EXPECT_TRUE(process::find("/no/such/prog").empty());
}

} // namespace
} // namespace by::test
