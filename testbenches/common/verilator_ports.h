// Moving BitVecs in and out of Verilated ports of any width (CData..QData, VlWide<N>), and
// detecting optional ports (which exist only for some configs) at compile time.
#pragma once

#include "golden/bitvec.h"

#include <type_traits>
#include <verilated.h>

namespace by::test {

template <typename T>
std::enable_if_t<std::is_integral_v<T>> setPort(T& port, const golden::BitVec& v) {
  port = static_cast<T>(v.get(0, v.width()));
}

template <std::size_t N> void setPort(VlWide<N>& port, const golden::BitVec& v) {
  for (std::size_t i = 0; i < N; ++i)
    port[i] = i < v.words().size() ? v.words()[i] : 0;
}

template <typename T>
std::enable_if_t<std::is_integral_v<T>, golden::BitVec> getPort(const T& port, int width) {
  golden::BitVec v(width);
  v.set(0, width, static_cast<uint64_t>(port));
  return v;
}

template <std::size_t N> golden::BitVec getPort(const VlWide<N>& port, int width) {
  golden::BitVec v(width);
  for (std::size_t i = 0; i < v.words().size(); ++i)
    v.words()[i] = port[i];
  if (width % 32)
    v.words().back() &= (1u << (width % 32)) - 1;
  return v;
}

} // namespace by::test

namespace by::test {

/// Writes the optional PE/mesh control ports that exist in model V (dataflow only when both
/// dataflows are built, shift only with OS). A template, so absent ports are never named.
template <typename V> void setOptionalControls(V& v, bool ws, unsigned shift);

} // namespace by::test

/// BY_HAS_PORT(Name, port): a trait Name<V> that is true when model V has member `port`.
#define BY_HAS_PORT(Name, port)                                                                    \
  template <typename V, typename = void> struct Name : std::false_type {};                         \
  template <typename V>                                                                            \
  struct Name<V, std::void_t<decltype(std::declval<V&>().port)>> : std::true_type {}

namespace by::test {
BY_HAS_PORT(HasDataflowPort, in_dataflow_i);
BY_HAS_PORT(HasShiftPort, in_shift_i);

template <typename V> void setOptionalControls(V& v, bool ws, unsigned shift) {
  if constexpr (HasDataflowPort<V>::value)
    v.in_dataflow_i = ws;
  if constexpr (HasShiftPort<V>::value)
    v.in_shift_i = shift;
  (void)ws;
  (void)shift;
}
} // namespace by::test
