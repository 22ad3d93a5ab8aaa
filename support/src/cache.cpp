#include "support/cache.h"

#include "support/file_lock.h"
#include "support/files.h"

#include <cstdlib>
#include <stdexcept>

namespace by::support {

namespace fs = std::filesystem;

// Absolute: cache entries are built by tools that run in other directories (a relative
// --cache-dir once reached the cross compiler as a relative include path).
fs::path cacheRoot(const fs::path& given) {
  if (!given.empty())
    return fs::absolute(given);
  if (const char* dir = std::getenv("BRICKYARD_CACHE_DIR"); dir && *dir)
    return fs::absolute(dir);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::absolute(fs::path(xdg) / "brickyard");
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::absolute(fs::path(home) / ".cache" / "brickyard");
  throw std::runtime_error(
      "no cache directory: set BRICKYARD_CACHE_DIR or HOME, or pass --cache-dir");
}

Outcome findOrMake(const fs::path& entry, const Maker& maker) {
  if (maker.usable(entry))
    return Outcome::Found;
  const fs::path folder = entry.parent_path();
  const std::string name = entry.filename().string();
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    throw std::runtime_error("cannot create the cache folder " + folder.string() + ": " +
                             ec.message());
  FileLock lock(folder / (name + ".lock"));
  if (!lock.tryLock()) {
    if (maker.waiting)
      maker.waiting();
    lock.lock();
  }
  if (maker.usable(entry)) // the other holder made it
    return Outcome::Found;

  // We hold the lock: a staging path of this entry is what a maker that died left behind.
  const std::string staged = "." + name + ".make-";
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().rfind(staged, 0) == 0)
      fs::remove_all(it->path(), ec);
  const fs::path staging = folder / (staged + uniqueSuffix());
  bool keep = false;
  try {
    keep = maker.make(staging);
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  if (!keep) {
    fs::remove_all(staging, ec);
    return Outcome::NotKept;
  }
  fs::remove_all(entry, ec); // what was there was not usable (incomplete, another key)
  fs::rename(staging, entry);
  return Outcome::Made;
}

bool DirectoryCache::complete(const std::string& name) const {
  std::error_code ec;
  return fs::exists(entry(name) / marker_, ec);
}

Outcome DirectoryCache::findOrMake(const std::string& name,
                                   const std::function<void(const fs::path& staging)>& make,
                                   const std::function<void()>& waiting) const {
  Maker maker;
  maker.usable = [&](const fs::path& e) {
    std::error_code ec;
    return fs::exists(e / marker_, ec);
  };
  maker.make = [&](const fs::path& staging) {
    fs::create_directories(staging);
    make(staging);
    return true;
  };
  maker.waiting = waiting;
  return support::findOrMake(entry(name), maker);
}

} // namespace by::support
