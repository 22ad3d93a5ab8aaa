#include "support/file_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

namespace by::support {

FileLock::FileLock(const std::filesystem::path& path)
    : path_(path), fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0)
    throw std::runtime_error("cannot create lock file " + path.string() + ": " +
                             std::strerror(errno));
}

FileLock::~FileLock() {
  if (locked_)
    flock(fd_, LOCK_UN);
  close(fd_);
}

bool FileLock::tryLock() {
  locked_ = flock(fd_, LOCK_EX | LOCK_NB) == 0;
  return locked_;
}

void FileLock::lock() {
  while (flock(fd_, LOCK_EX) != 0)
    if (errno != EINTR)
      throw std::runtime_error("cannot lock " + path_.string() + ": " + std::strerror(errno));
  locked_ = true;
}

} // namespace by::support
