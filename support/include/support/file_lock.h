// An exclusive advisory lock on a file (flock), held for the object's lifetime: the one lock of
// the caches (support/cache.h) and of anything else two processes must not do at once. The
// kernel releases it when the holder dies, so a crashed process never blocks the next one.
// Each object opens the file itself, so two threads of one process exclude each other too.
#pragma once

#include <filesystem>

namespace by::support {

class FileLock {
public:
  /// Opens (creating) the lock file; throws std::runtime_error if that fails.
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  /// Takes the lock if it is free; false if another holder has it.
  bool tryLock();
  /// Waits for the lock. Throws std::runtime_error if the system refuses it.
  void lock();

private:
  std::filesystem::path path_;
  int fd_;
  bool locked_ = false;
};

} // namespace by::support
