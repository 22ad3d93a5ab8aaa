#include "support/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace by::support {

namespace fs = std::filesystem;

std::string uniqueSuffix() {
  return std::to_string(static_cast<long>(getpid())) + "-" +
         std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()) % 1000000);
}

std::string readFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw FileError(path.string() + ": cannot open the file: " + std::strerror(errno));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void writeFileAtomically(const fs::path& path, std::string_view content) {
  const fs::path tmp = path.string() + ".tmp-" + uniqueSuffix();
  if (path.has_parent_path()) { // `--out results/y.npy` makes results/; a failure shows below
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
  }
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f)
      throw FileError("cannot write " + path.string() + ": " + std::strerror(errno));
    f.write(content.data(), std::streamsize(content.size()));
    if (!f.flush()) {
      const int e = errno;
      std::error_code ec;
      fs::remove(tmp, ec);
      throw FileError("cannot write " + path.string() + ": " + std::strerror(e));
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw FileError("cannot write " + path.string() + ": " + ec.message());
  }
}

bool isBrickyardOutput(const fs::path& dir) {
  std::ifstream in(dir / "manifest.json");
  std::string head(200, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in.gcount() > 0 && head.find("\"generator\": \"brickyard") != std::string::npos;
}

namespace {

/// A fresh staging directory next to `target`: <parent>/.<name>.staging-<pid>.
fs::path makeStaging(const fs::path& target) {
  const fs::path parent = fs::absolute(target).parent_path();
  fs::create_directories(parent);
  const fs::path staging = parent / ("." + target.filename().string() + ".staging-" +
                                     std::to_string(static_cast<long>(getpid())));
  fs::remove_all(staging);
  fs::create_directories(staging);
  return staging;
}

} // namespace

StagedDirectory::StagedDirectory(fs::path target) : target_(std::move(target)) {
  std::error_code ec;
  if (fs::exists(target_, ec)) {
    if (!fs::is_directory(target_))
      throw OutputRefused(target_.string() + " exists and is not a directory");
    if (!fs::is_empty(target_) && !isBrickyardOutput(target_))
      throw OutputRefused(target_.string() +
                          " exists, is not empty and is not a Brickyard output directory; "
                          "refusing to replace it (choose another -o)");
  }
  staging_ = makeStaging(target_);
}

StagedDirectory::~StagedDirectory() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
  }
}

void StagedDirectory::write(const fs::path& relative, std::string_view content) {
  fs::path path = staging_ / relative;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), std::streamsize(content.size()));
  out.close();
  if (!out)
    throw FileError("cannot write " + path.string());
}

void StagedDirectory::commit() {
  fs::path old;
  if (fs::exists(target_)) {
    old = staging_.string() + ".old";
    fs::remove_all(old);
    fs::rename(target_, old);
  }
  std::error_code ec;
  fs::rename(staging_, target_, ec);
  if (ec) {
    if (!old.empty())
      fs::rename(old, target_); // put the previous output back
    throw FileError("cannot move the output into place at " + target_.string() + ": " +
                    ec.message());
  }
  committed_ = true;
  if (!old.empty())
    fs::remove_all(old);
}

StagedFiles::StagedFiles(fs::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_))
    throw OutputRefused(dir_.string() + " exists and is not a directory");
  staging_ = makeStaging(dir_);
}

StagedFiles::~StagedFiles() {
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void StagedFiles::commit() {
  fs::create_directories(dir_);
  for (const auto& e : fs::directory_iterator(staging_))
    fs::rename(e.path(), dir_ / e.path().filename());
}

} // namespace by::support
