// workload/apps/sized_defaults.cpp: per-node memory of the applications, and defaults fitted to P.
#include "workload/apps/sized_defaults.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "workload/apps/fft.hpp"

namespace mppnet::workload::apps {

namespace {
constexpr int kSampleSortReceiveFactor = 4;  // sample_sort.cpp: a node's receive area holds 4 n keys

bool is_set(const std::vector<std::string>& set_keys, const std::string& key) {
  return std::find(set_keys.begin(), set_keys.end(), key) != set_keys.end();
}
}  // namespace

// Two areas of P blocks (send and receive), and 16 bytes of alignment slack.
std::uint64_t alltoall_memory_bytes(int nodes, int bytes) {
  return 2ull * static_cast<std::uint64_t>(nodes) * static_cast<std::uint64_t>(bytes) + 16;
}

// Keys, the receive area, this node's samples, node 0's P sets of samples, P splitters; 64 of slack.
std::uint64_t samplesort_memory_bytes(int nodes, int keys, int samples) {
  const auto n = static_cast<std::uint64_t>(keys), s = static_cast<std::uint64_t>(samples);
  const auto p = static_cast<std::uint64_t>(nodes);
  return 8 * (n * (1 + kSampleSortReceiveFactor) + s + p * s + p) + 64;
}

// Keys and the send buffer (8 bytes each), this node's counts per digit and its starts (4 bytes each).
std::uint64_t radixsort_memory_bytes(int keys, int bits) {
  const std::uint64_t digits = 1ull << bits;
  return 16ull * static_cast<std::uint64_t>(keys) + 8 * digits + 64;
}

// Data, send and receive areas of N / P complex doubles.
std::uint64_t fft_memory_bytes(int nodes, int points) {
  return 3ull * 16 * static_cast<std::uint64_t>(points / nodes) + 64;
}

// Data, and a receive area of N / P' complex doubles for each of the log2 P' exchanges, P' the nodes
// that take part (the largest power of two up to P).
std::uint64_t fft_exchange_memory_bytes(int nodes, int points) {
  const int taking_part = fft_exchange_nodes(nodes);
  const auto exchanges = static_cast<std::uint64_t>(std::countr_zero(static_cast<unsigned>(taking_part)));
  return 16ull * static_cast<std::uint64_t>(points / taking_part) * (1 + exchanges) + 64;
}

std::vector<DefaultChange> fit_defaults(const std::string& app, AppParams& params, int nodes,
                                        std::int64_t memory_bytes, const std::vector<std::string>& set_keys) {
  std::vector<DefaultChange> changes;
  if (nodes < 1) return changes;
  const auto memory = static_cast<std::uint64_t>(memory_bytes);
  const auto too_big = [&](std::uint64_t need, long long value) {
    return fmt::format("the default {} needs {} bytes of memory per node on {} nodes; am.memory_bytes is {}",
                       value, need, nodes, memory_bytes);
  };
  if (app == "alltoall" && !is_set(set_keys, "app.alltoall_bytes")) {
    const std::uint64_t need = alltoall_memory_bytes(nodes, params.alltoall_bytes);
    if (need > memory) {
      // Whole words of 8 bytes where they fit, so that blocks stay aligned.
      std::uint64_t fit = (memory - std::min<std::uint64_t>(memory, 16)) / (2ull * nodes);
      if (fit >= 8) fit -= fit % 8;
      if (fit >= 1) {
        changes.push_back(
            {"app.alltoall_bytes", static_cast<long long>(fit), too_big(need, params.alltoall_bytes)});
        params.alltoall_bytes = static_cast<int>(fit);
      }
    }
  }
  if (app == "samplesort" && !is_set(set_keys, "app.samplesort_samples")) {
    const std::uint64_t need =
        samplesort_memory_bytes(nodes, params.samplesort_keys, params.samplesort_samples);
    if (need > memory) {
      // Node 0 gathers P x samples keys: fewer samples per node is what fits; the buckets vary more
      // (about n / sqrt(samples)), and the receive area of 4 n keys still holds them.
      int fit = params.samplesort_samples;
      while (fit > 1 && samplesort_memory_bytes(nodes, params.samplesort_keys, fit) > memory) --fit;
      if (fit < params.samplesort_samples &&
          samplesort_memory_bytes(nodes, params.samplesort_keys, fit) <= memory) {
        changes.push_back({"app.samplesort_samples", fit, too_big(need, params.samplesort_samples)});
        params.samplesort_samples = fit;
      }
    }
  }
  if (app == "radixsort" && !is_set(set_keys, "app.radixsort_bits")) {
    const std::uint64_t need = radixsort_memory_bytes(params.radixsort_keys, params.radixsort_bits);
    if (need > memory) {
      // The two tables of 2^bits entries: fewer bits per pass (more passes) is what fits.
      int fit = params.radixsort_bits;
      while (fit > 1 && radixsort_memory_bytes(params.radixsort_keys, fit) > memory) --fit;
      if (fit < params.radixsort_bits && radixsort_memory_bytes(params.radixsort_keys, fit) <= memory) {
        changes.push_back({"app.radixsort_bits", fit, too_big(need, params.radixsort_bits)});
        params.radixsort_bits = fit;
      }
    }
  }
  if (app == "fft" && !is_set(set_keys, "app.fft_points")) {
    const int fit = fft_points_at_least(params.fft_points, nodes, params.fft_algorithm);
    AppParams fitted = params;
    fitted.fft_points = fit;
    const bool exchange = fit != 0 && resolved_fft_algorithm(fitted, nodes) == FftAlgorithm::BinaryExchange;
    const std::uint64_t need =
        exchange ? fft_exchange_memory_bytes(nodes, fit) : fft_memory_bytes(nodes, fit);
    if (fit != 0 && fit != params.fft_points && need <= memory) {
      changes.push_back(
          {"app.fft_points", fit,
           exchange
               ? fmt::format("the default {} is not a power of two of at least {} points for the "
                             "binary exchange on {} nodes; {} is the smallest that is",
                             params.fft_points, fft_exchange_nodes(nodes), fft_exchange_nodes(nodes), fit)
               : fmt::format("the default {} is not a multiple of P^2 = {} x {} with fast local "
                             "transforms; {} is the smallest that is",
                             params.fft_points, nodes, nodes, fit)});
      params.fft_points = fit;
    }
  }
  return changes;
}

}  // namespace mppnet::workload::apps
