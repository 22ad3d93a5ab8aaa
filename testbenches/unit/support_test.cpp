// The support layer (support/): FNV-1a against the published test vectors, the framing of cache
// keys, log tails, atomic writes and staged directories, the caches' find-or-make (once under
// contention, nothing left by a failed or dropped make, stale staging removed) and the job pool
// (every job once, never more than `parallel` at a time, the first error rethrown).
#include "support/cache.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/job_pool.h"
#include "support/json.h"
#include "support/tail.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace by::test {
namespace {

namespace fs = std::filesystem;
using namespace by::support;

fs::path scratch(const std::string& name) {
  const fs::path d = fs::path(BY_BINARY_DIR) / "test-output" / "support_test" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Hash, Fnv1aMatchesThePublishedVectors) {
  // Test vectors of the FNV reference (Noll, "FNV hash", 64-bit FNV-1a).
  EXPECT_EQ(hashHex(""), "cbf29ce484222325");
  EXPECT_EQ(hashHex("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(hashHex("foobar"), "85944171f73967e8");
  EXPECT_EQ(Fnv1a().add("foo").add("bar").hex(), hashHex("foobar"));
  EXPECT_EQ(Fnv1a().add("a").value(), 0xaf63dc4c8601ec8cull);
}

TEST(Hash, FieldsAreFramedByTheirLength) {
  EXPECT_EQ(Fnv1a().addField("ab").addField("c").hex(), hashHex("2:ab1:c"));
  EXPECT_NE(Fnv1a().addField("ab").addField("c").hex(), Fnv1a().addField("a").addField("bc").hex());
  EXPECT_EQ(Fnv1a().addField("").hex(), hashHex("0:"));
}

TEST(Tail, LastLines) {
  EXPECT_EQ(lastLines("a\nb\nc\nd\n", 3), "b\nc\nd");
  EXPECT_EQ(lastLines("a\nb\nc\nd\n\n\n", 2), "c\nd");
  EXPECT_EQ(lastLines("a\nb", 5), "a\nb");
  EXPECT_EQ(lastLines("\n\na", 5), "a");
  EXPECT_EQ(lastLines("", 3), "");
  EXPECT_EQ(lastLines("one line", 0), "");
  const fs::path dir = scratch("tail");
  std::ofstream(dir / "log") << "1\n2\n3\n";
  EXPECT_EQ(tailOfFile(dir / "log", 2), "2\n3\n");
  EXPECT_EQ(tailOfFile(dir / "missing", 2), "");
}

TEST(Files, AtomicWritesReplaceWholeFilesAndLeaveNoTemporaries) {
  const fs::path dir = scratch("atomic");
  writeFileAtomically(dir / "f", "first");
  writeFileAtomically(dir / "f", "second, longer");
  EXPECT_EQ(readFile(dir / "f"), "second, longer");
  EXPECT_EQ(names(dir), std::vector<std::string>{"f"});
  writeFileAtomically(dir / "new" / "deeper" / "g", "x"); // missing folders are made
  EXPECT_EQ(readFile(dir / "new" / "deeper" / "g"), "x");
  EXPECT_THROW(writeFileAtomically(dir / "f" / "h", "x"), FileError); // a file is no folder
  EXPECT_THROW(readFile(dir / "missing"), FileError);
  try {
    readFile(dir / "missing");
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("missing: cannot open the file"), std::string::npos);
  }
}

TEST(Files, StagedDirectoryReplacesOnlyBrickyardOutputsAndOnlyOnCommit) {
  const fs::path dir = scratch("staged");
  const fs::path out = dir / "out";
  {
    StagedDirectory s(out);
    s.write("manifest.json", "{\"generator\": \"brickyard test\"}\n");
    s.write("sub/a.txt", "a");
    EXPECT_FALSE(fs::exists(out));
    s.commit();
  }
  EXPECT_EQ(readFile(out / "sub/a.txt"), "a");
  {
    StagedDirectory s(out); // a Brickyard output: may be replaced
    s.write("b.txt", "b");
  } // not committed: out stays as it was, no staging left
  EXPECT_EQ(readFile(out / "sub/a.txt"), "a");
  EXPECT_FALSE(fs::exists(out / "b.txt"));
  EXPECT_EQ(names(dir), std::vector<std::string>{"out"});
  const fs::path foreign = dir / "foreign";
  fs::create_directories(foreign);
  std::ofstream(foreign / "thesis.tex") << "precious";
  EXPECT_THROW(StagedDirectory s(foreign), OutputRefused);
  EXPECT_EQ(readFile(foreign / "thesis.tex"), "precious");
}

TEST(Files, StagedFilesMoveInTogetherAndLeaveTheOthers) {
  const fs::path dir = scratch("files");
  const fs::path out = dir / "out";
  fs::create_directories(out);
  std::ofstream(out / "mine.txt") << "mine";
  std::ofstream(out / "a.txt") << "old a";
  {
    StagedFiles s(out);
    writeFileAtomically(s.stagingPath() / "a.txt", "new a");
    writeFileAtomically(s.stagingPath() / "b.txt", "b");
    EXPECT_EQ(readFile(out / "a.txt"), "old a"); // nothing moves before commit
  }                                              // not committed
  EXPECT_EQ(readFile(out / "a.txt"), "old a");
  EXPECT_FALSE(fs::exists(out / "b.txt"));
  EXPECT_EQ(names(dir), std::vector<std::string>{"out"});
  StagedFiles s(out);
  writeFileAtomically(s.stagingPath() / "a.txt", "new a");
  writeFileAtomically(s.stagingPath() / "b.txt", "b");
  s.commit();
  EXPECT_EQ(readFile(out / "a.txt"), "new a");
  EXPECT_EQ(readFile(out / "b.txt"), "b");
  EXPECT_EQ(readFile(out / "mine.txt"), "mine");
}

TEST(Json, RecordsAreReadByTypeWithTheFileInErrors) {
  const fs::path dir = scratch("json");
  std::ofstream(dir / "ok.json") << "{\"n\": 3}";
  std::ofstream(dir / "bad.json") << "{\"n\": ";
  EXPECT_EQ(readJson(dir / "ok.json").at("n").get<int>(), 3);
  const auto record = readRecord<std::map<std::string, int>>(dir / "ok.json");
  EXPECT_EQ(record.at("n"), 3);
  try {
    readJson(dir / "bad.json");
    ADD_FAILURE() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: not valid JSON"), std::string::npos);
  }
  EXPECT_THROW(readRecord<std::vector<int>>(dir / "ok.json"), FileError);
}

TEST(Cache, CacheRootFollowsTheEnvironment) {
  const char* saved = std::getenv("BRICKYARD_CACHE_DIR");
  const std::string keep = saved ? saved : "";
  setenv("BRICKYARD_CACHE_DIR", "/some/where", 1);
  EXPECT_EQ(cacheRoot(), fs::path("/some/where"));
  EXPECT_EQ(cacheRoot("/given"), fs::path("/given"));
  // Relative ones become absolute (tools that fill the cache run in other directories).
  EXPECT_EQ(cacheRoot("rel/c"), fs::current_path() / "rel" / "c");
  setenv("BRICKYARD_CACHE_DIR", "rel", 1);
  EXPECT_EQ(cacheRoot(), fs::current_path() / "rel");
  unsetenv("BRICKYARD_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(cacheRoot(), fs::path("/xdg/brickyard"));
  unsetenv("XDG_CACHE_HOME");
  if (const char* home = std::getenv("HOME")) {
    EXPECT_EQ(cacheRoot(), fs::path(home) / ".cache" / "brickyard");
  }
  if (saved)
    setenv("BRICKYARD_CACHE_DIR", keep.c_str(), 1);
}

Maker fileMaker(std::atomic<int>& made, const std::string& content, bool keep = true) {
  Maker m;
  m.usable = [](const fs::path& e) { return fs::exists(e); };
  m.make = [&made, content, keep](const fs::path& staging) {
    ++made;
    std::ofstream(staging) << content;
    return keep;
  };
  return m;
}

TEST(Cache, FindOrMakeMakesOnceThenFinds) {
  const fs::path dir = scratch("once");
  std::atomic<int> made{0};
  EXPECT_EQ(findOrMake(dir / "e", fileMaker(made, "x")), Outcome::Made);
  EXPECT_EQ(findOrMake(dir / "e", fileMaker(made, "y")), Outcome::Found);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(readFile(dir / "e"), "x");
  EXPECT_EQ(names(dir), (std::vector<std::string>{"e", "e.lock"}));
}

TEST(Cache, AFailedOrDroppedMakeLeavesNoEntry) {
  const fs::path dir = scratch("failed");
  Maker throwing;
  throwing.usable = [](const fs::path& e) { return fs::exists(e); };
  throwing.make = [](const fs::path& staging) -> bool {
    fs::create_directories(staging / "half");
    throw std::runtime_error("tool failed");
  };
  EXPECT_THROW(findOrMake(dir / "e", throwing), std::runtime_error);
  EXPECT_EQ(names(dir), std::vector<std::string>{"e.lock"});
  std::atomic<int> made{0};
  EXPECT_EQ(findOrMake(dir / "e", fileMaker(made, "x", false)), Outcome::NotKept);
  EXPECT_EQ(names(dir), std::vector<std::string>{"e.lock"});
  EXPECT_EQ(findOrMake(dir / "e", fileMaker(made, "x")), Outcome::Made);
  EXPECT_EQ(made, 2);
}

TEST(Cache, AnUnusableEntryAndStaleStagingAreReplaced) {
  const fs::path dir = scratch("stale");
  fs::create_directories(dir / ".e.make-1234-5" / "junk"); // a maker that died
  std::ofstream(dir / "e") << "old key";
  std::atomic<int> made{0};
  Maker m = fileMaker(made, "new key");
  m.usable = [](const fs::path& e) { return fs::exists(e) && readFile(e) == "new key"; };
  EXPECT_EQ(findOrMake(dir / "e", m), Outcome::Made);
  EXPECT_EQ(readFile(dir / "e"), "new key");
  EXPECT_EQ(names(dir), (std::vector<std::string>{"e", "e.lock"}));
}

TEST(Cache, ConcurrentMakersOfOneEntryMakeItOnce) {
  const fs::path dir = scratch("race");
  const DirectoryCache cache(dir, "done");
  std::atomic<int> made{0}, waited{0};
  std::vector<Outcome> outcomes(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < outcomes.size(); ++t)
    threads.emplace_back([&, t] {
      outcomes[t] = cache.findOrMake(
          "entry",
          [&](const fs::path& staging) {
            ++made;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            std::ofstream(staging / "data") << "made";
            std::ofstream(staging / "done") << "ok";
          },
          [&] { ++waited; });
    });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(made, 1);
  EXPECT_EQ(std::count(outcomes.begin(), outcomes.end(), Outcome::Made), 1);
  EXPECT_EQ(std::count(outcomes.begin(), outcomes.end(), Outcome::Found), 3);
  EXPECT_GE(waited, 1); // at least one of them arrived while it was being made
  EXPECT_TRUE(cache.complete("entry"));
  EXPECT_EQ(readFile(cache.entry("entry") / "data"), "made");
  EXPECT_EQ(names(dir), (std::vector<std::string>{"entry", "entry.lock"}));
}

TEST(JobPool, RunsEveryJobOnceAtMostParallelAtATime) {
  std::atomic<int> now{0}, most{0};
  std::vector<int> runs(12, 0);
  std::mutex m;
  std::vector<size_t> doneCounts;
  JobPoolOptions o;
  o.parallel = 3;
  std::FILE* log = std::tmpfile();
  o.stream = log;
  o.finished = [&](size_t job, const JobProgress& p) {
    doneCounts.push_back(p.done);
    EXPECT_EQ(p.total, 12u);
    return "job " + std::to_string(job) + "\n";
  };
  runJobPool(
      runs.size(),
      [&](size_t job) {
        const int running = ++now;
        for (int seen = most; running > seen && !most.compare_exchange_weak(seen, running);) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        {
          std::lock_guard<std::mutex> g(m);
          ++runs[job];
        }
        --now;
      },
      o);
  EXPECT_EQ(runs, std::vector<int>(12, 1));
  EXPECT_LE(most, 3);
  EXPECT_GE(most, 2);
  std::vector<size_t> want(12);
  for (size_t i = 0; i < want.size(); ++i)
    want[i] = i + 1;
  EXPECT_EQ(doneCounts, want);
  std::rewind(log);
  char line[64];
  int lines = 0;
  while (std::fgets(line, sizeof line, log))
    lines += std::string(line).rfind("job ", 0) == 0;
  EXPECT_EQ(lines, 12);
  std::fclose(log);
}

TEST(JobPool, TheFirstErrorStopsNewJobsAndIsRethrown) {
  std::atomic<int> started{0};
  JobPoolOptions o;
  o.parallel = 2;
  o.quiet = true;
  try {
    runJobPool(
        50,
        [&](size_t job) {
          ++started;
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          if (job == 3)
            throw std::runtime_error("job 3 failed");
        },
        o);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "job 3 failed");
  }
  EXPECT_LT(started, 10);
  EXPECT_GE(started, 4);
}

} // namespace
} // namespace by::test
