#include "input.h"

#include <stdexcept>
#include <string>

namespace by::boveda::detail {

namespace {

template <typename T>
std::vector<int16_t> widen(const BovedaParams& params, const T* values, size_t n) {
  params.validate();
  if (n != 0 && values == nullptr)
    throw std::invalid_argument("boveda: null value pointer for a tensor of " + std::to_string(n) +
                                " values");
  const int32_t lo = -(int32_t{1} << (params.elementBits - 1));
  const int32_t hi = (int32_t{1} << (params.elementBits - 1)) - 1;
  std::vector<int16_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = values[i];
    if (v < lo || v > hi)
      throw std::invalid_argument("boveda: value " + std::to_string(v) + " at index " +
                                  std::to_string(i) + " does not fit " +
                                  std::to_string(params.elementBits) + "-bit signed elements");
    out[i] = static_cast<int16_t>(v);
  }
  return out;
}

} // namespace

std::vector<int16_t> checkedValues(const BovedaParams& params, const int8_t* values, size_t n) {
  return widen(params, values, n);
}

std::vector<int16_t> checkedValues(const BovedaParams& params, const int16_t* values, size_t n) {
  return widen(params, values, n);
}

} // namespace by::boveda::detail
