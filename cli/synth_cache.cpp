#include "synth_cache.h"

#include "file_lock.h"

#include <cstdio>
#include <thread>
#include <unistd.h>

namespace by::cli {

namespace fs = std::filesystem;

KeyHash& KeyHash::add(const std::string& text) {
  // The length first, so that ("ab", "c") and ("a", "bc") differ.
  const std::string framed = std::to_string(text.size()) + ":" + text;
  for (unsigned char c : framed) {
    h_ ^= c;
    h_ *= 1099511628211ull;
  }
  return *this;
}

std::string KeyHash::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", h_);
  return buf;
}

bool SynthCache::complete(const std::string& name) const {
  std::error_code ec;
  return fs::exists(dir_ / name / "run.json", ec);
}

bool SynthCache::findOrMake(const std::string& name,
                            const std::function<void(const fs::path& staging)>& make) const {
  if (complete(name))
    return false;
  fs::create_directories(dir_);
  rtlmodel::FileLock lock(dir_ / (name + ".lock"));
  lock.lock();
  if (complete(name)) // another process made it while we waited
    return false;
  std::error_code ec;
  fs::remove_all(dir_ / name, ec); // not made by us (an entry is renamed in with its run.json)
  // Threads of one process make different entries, so the pid and thread make staging unique.
  const fs::path staging =
      dir_ / (".make-" + name + "-" + std::to_string(getpid()) + "-" +
              std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()) % 100000));
  fs::remove_all(staging, ec);
  fs::create_directories(staging);
  try {
    make(staging);
    fs::rename(staging, dir_ / name);
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  return true;
}

} // namespace by::cli
