// topo/source_route.cpp: checking and printing source routes (topo/source_route.hpp).
#include "topo/source_route.hpp"

#include <fmt/format.h>

namespace mppnet::topo {

std::string source_route_problem(const SourceRoute& route) {
  if (route.length == 0) return "a source route needs at least one byte";
  if (route.length > kMaxRouteBytes)
    return fmt::format("a source route holds at most {} bytes (got {})", kMaxRouteBytes, route.length);
  for (int i = 0; i < route.length; ++i) {
    const std::uint8_t b = route.bytes[i];
    if (decode_route_byte(b)) continue;
    const char* why = (b & 0x80) == 0   ? "bits 6..3 of a single-output byte must be 0"
                      : (b & 0x40) != 0 ? "bit 6 of a range byte is reserved"
                                        : "a range byte's lo (bits 5..3) exceeds its hi (bits 2..0)";
    return fmt::format("route byte {} of {} is {:#04x}: {}", i, route.length, b, why);
  }
  return "";
}

std::string format_source_route(const SourceRoute& route) {
  std::string s;
  for (int i = 0; i < route.length; ++i) {
    if (i > 0) s += '.';
    const auto b = decode_route_byte(route.bytes[i]);
    if (!b) {
      s += fmt::format("{:#04x}?", route.bytes[i]);
    } else if (b->is_range()) {
      s += fmt::format("[{}-{}]", b->lo, b->hi);
    } else {
      s += std::to_string(b->lo);
    }
  }
  return s;
}

}  // namespace mppnet::topo
