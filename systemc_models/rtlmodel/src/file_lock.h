// An exclusive advisory lock on a file (flock), held for the object's lifetime. Other
// processes building the same cache entry wait on it; the kernel releases it if the holder
// dies, so a crashed build never blocks the next one.
#pragma once

#include <filesystem>

namespace by::rtlmodel {

class FileLock {
public:
  /// Opens (creating) the lock file; throws std::runtime_error if that fails.
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  /// Takes the lock if it is free; false if another process holds it.
  bool tryLock();
  /// Waits for the lock.
  void lock();

private:
  int fd_;
  bool locked_ = false;
};

} // namespace by::rtlmodel
