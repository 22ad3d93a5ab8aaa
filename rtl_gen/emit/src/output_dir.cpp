#include "emit/output_dir.h"

#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace by::emit {

namespace fs = std::filesystem;

bool isBrickyardOutput(const fs::path& dir) {
  std::ifstream in(dir / "manifest.json");
  std::string head(200, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in.gcount() > 0 && head.find("\"generator\": \"brickyard") != std::string::npos;
}

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
  fs::path parent = fs::absolute(target_).parent_path();
  fs::create_directories(parent);
  staging_ = parent / ("." + target_.filename().string() + ".staging-" +
                       std::to_string(static_cast<long>(getpid())));
  fs::remove_all(staging_);
  fs::create_directories(staging_);
}

StagedDirectory::~StagedDirectory() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
  }
}

void StagedDirectory::write(const fs::path& relative, const std::string& content) {
  fs::path path = staging_ / relative;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.close();
  if (!out)
    throw std::runtime_error("cannot write " + path.string());
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
    throw std::runtime_error("cannot move the output into place at " + target_.string() + ": " +
                             ec.message());
  }
  committed_ = true;
  if (!old.empty())
    fs::remove_all(old);
}

void writeFileAtomically(const fs::path& path, const std::string& content) {
  if (path.has_parent_path())
    fs::create_directories(path.parent_path());
  fs::path tmp = path.string() + ".tmp-" + std::to_string(static_cast<long>(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary);
    out << content;
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write " + path.string());
    }
  }
  fs::rename(tmp, path);
}

} // namespace by::emit
