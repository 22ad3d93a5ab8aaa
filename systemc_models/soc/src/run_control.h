// How a run ends. The exit device, the host CPU (faults, --max-cycles) and the watchdog
// report here; the first report wins and stops the SystemC kernel.
#pragma once

#include "soc/platform.h"

#include <optional>
#include <string>
#include <systemc>

namespace by::soc {

class RunControl {
public:
  void end(SimEnd how, int code, std::string message, const sc_core::sc_time& when) {
    if (end_)
      return;
    end_ = how;
    code_ = code;
    message_ = std::move(message);
    when_ = when;
    sc_core::sc_stop();
  }

  bool ended() const { return end_.has_value(); }
  const std::optional<SimEnd>& how() const { return end_; }
  int code() const { return code_; }
  const std::string& message() const { return message_; }
  const sc_core::sc_time& when() const { return when_; } // simulated time of the end

private:
  std::optional<SimEnd> end_;
  int code_ = 0;
  std::string message_;
  sc_core::sc_time when_;
};

} // namespace by::soc
