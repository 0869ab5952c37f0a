// core/rng.hpp: counter-based random streams keyed by (seed, component, stream).
//
// A draw is a hash of (run seed, component id, stream id, counter), so no component shares a generator
// with another and results do not depend on the order components are visited (ARCHITECTURE.md,
// "Randomness"). The mix is SplitMix64's finaliser applied to a combination of the four keys.
#pragma once

#include <cstdint>

namespace mppnet::core {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Well-known stream ids; components may use any other value for streams of their own.
enum class Stream : std::uint32_t {
  Arrival = 1,      // injection process
  Destination = 2,  // traffic pattern
  PacketSize = 3,
  RouteChoice = 4,  // adaptive choices inside a router
  Setup = 5,        // one-time draws while building (permutations, hot spots)
  Fault = 6,
};

class RandomStream {
 public:
  constexpr RandomStream() = default;
  constexpr RandomStream(std::uint64_t seed, std::uint64_t component, Stream stream)
      : key_(splitmix64(splitmix64(seed) ^ splitmix64(component * 0x632be59bd9b4e019ULL + 1) ^
                        (static_cast<std::uint64_t>(stream) << 48))) {}

  constexpr std::uint64_t next_u64() { return splitmix64(key_ ^ splitmix64(counter_++)); }

  // Uniform in [0, 1) with 53 random bits.
  constexpr double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n). REQUIRES: n > 0. Lemire's multiply-shift; the bias is below 2^-32 for
  // the n a network ever asks for, and it avoids a division on the hot path.
  constexpr std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next_u64() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

  constexpr bool bernoulli(double p) { return uniform01() < p; }

  constexpr std::uint64_t counter() const { return counter_; }

 private:
  std::uint64_t key_ = 0;
  std::uint64_t counter_ = 0;
};

}  // namespace mppnet::core
