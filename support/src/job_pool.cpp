#include "support/job_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace by::support {
namespace {

using Clock = std::chrono::steady_clock;

// The pool's shared state; every member is guarded by `m` (the flags are atomics for the
// ticker).
class Pool {
public:
  Pool(size_t count, const std::function<void(size_t)>& run, const JobPoolOptions& o)
      : count_(count), run_(run), o_(o), live_(!o.quiet && o.label && isatty(fileno(o.stream))),
        start_(Clock::now()) {}

  void execute() {
    std::thread ticker; // only for a live line: it alone needs redrawing while nothing ends
    if (live_)
      ticker = std::thread([this] { tick(); });
    std::vector<std::thread> threads;
    const int workers = std::max(1, std::min<int>(o_.parallel, int(std::max<size_t>(count_, 1))));
    for (int t = 1; t < workers; ++t)
      threads.emplace_back([this] { work(); });
    work();
    for (std::thread& t : threads)
      t.join();
    stop_ = true;
    if (ticker.joinable())
      ticker.join();
    if (live_) {
      std::fprintf(o_.stream, "\r\033[K");
      std::fflush(o_.stream);
    }
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  JobProgress progress() const {
    return {done_, count_, std::chrono::duration<double>(Clock::now() - start_).count()};
  }

  void drawLive() { // with m_ held
    if (!live_ || running_.empty())
      return;
    std::string line = "  running:";
    for (size_t r : running_)
      line += " " + o_.label(r);
    if (o_.liveTail)
      line += o_.liveTail(progress());
    if (line.size() > 150) // one terminal line, or \r cannot redraw it
      line = line.substr(0, 147) + "...";
    std::fprintf(o_.stream, "\r\033[K%s", line.c_str());
    std::fflush(o_.stream);
  }

  void work() {
    for (;;) {
      size_t job;
      {
        std::lock_guard<std::mutex> g(m_);
        if (next_ >= count_ || error_)
          return;
        job = next_++;
        running_.push_back(job);
        drawLive();
      }
      std::exception_ptr failure;
      try {
        run_(job);
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> g(m_);
      running_.erase(std::find(running_.begin(), running_.end(), job));
      if (failure) {
        if (!error_)
          error_ = failure;
        continue;
      }
      ++done_;
      if (o_.quiet)
        continue;
      const std::string text = o_.finished ? o_.finished(job, progress()) : "";
      if (!text.empty()) {
        std::fprintf(o_.stream, "%s%s", live_ ? "\r\033[K" : "", text.c_str());
        std::fflush(o_.stream);
      }
      drawLive();
    }
  }

  void tick() {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      std::lock_guard<std::mutex> g(m_);
      if (!stop_)
        drawLive();
    }
  }

  const size_t count_;
  const std::function<void(size_t)>& run_;
  const JobPoolOptions& o_;
  const bool live_;
  const Clock::time_point start_;
  std::mutex m_;
  size_t next_ = 0, done_ = 0;
  std::vector<size_t> running_;
  std::exception_ptr error_;
  std::atomic<bool> stop_{false};
};

} // namespace

void runJobPool(size_t count, const std::function<void(size_t job)>& run,
                const JobPoolOptions& options) {
  Pool(count, run, options).execute();
}

} // namespace by::support
