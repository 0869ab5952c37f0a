// workload/apps/expected_work.cpp: each application's message count in closed form.
#include "workload/apps/expected_work.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "workload/apps/fft.hpp"
#include "workload/apps/processor_grid.hpp"

namespace mppnet::workload::apps {

namespace {

// Requests of a block of `bytes` split into packets (am::Node::store, put, get; counted_store).
double packets(double bytes, const am::AmParams& am) {
  return std::ceil(bytes / am.packet_payload_bytes);
}

// Packets of k keys that a bucket of random size takes, on average: n keys fall into P buckets, so a
// bucket holds Poisson(lambda = n / P) keys, and c keys take ceil(c / k) packets. A large lambda rounds
// up half a packet less one key on average.
double bucket_packets(double lambda, double k) {
  if (lambda > 50) return lambda / k + (k - 1) / (2 * k);
  double sum = 0, pmf = std::exp(-lambda);  // P(c = 0)
  for (int c = 1; c < 200; ++c) {
    pmf *= lambda / c;
    sum += pmf * std::ceil(c / k);
  }
  return sum;
}

// Faces that have a neighbour, summed over the nodes of the processor grid.
double faces_present(int p, int dims) {
  const ProcessorGrid g = processor_grid(p, dims);
  double faces = 0;
  for (int v = 0; v < p; ++v)
    for (int axis = 0; axis < dims; ++axis)
      for (const int step : {-1, 1}) faces += g.neighbour(v, axis, step) >= 0 ? 1 : 0;
  return faces;
}

// One combine of the software tree: every node but the root sends up once and down once.
double combine(int p, CollectivesIn collectives) {
  return collectives == CollectivesIn::Software ? 2.0 * (p - 1) : 0;
}

}  // namespace

double alltoall_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn) {
  return static_cast<double>(p) * (p - 1) * packets(a.alltoall_bytes, am);
}

// A request and its reply per fetch-and-add.
double counter_messages(const AppParams& a, int p, const am::AmParams&, CollectivesIn) {
  return 2.0 * p * a.counter_increments;
}

double permutation_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn) {
  return static_cast<double>(p) * a.permutation_rounds * packets(a.permutation_bytes, am);
}

double stencil2d_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn) {
  return a.stencil_iterations * faces_present(p, 2) * packets(8.0 * a.stencil_edge, am);
}

double stencil3d_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn) {
  return a.stencil_iterations * faces_present(p, 3) * packets(8.0 * a.stencil_edge * a.stencil_edge, am);
}

// Samples to node 0, the splitters' broadcast (a combine per key), every node's keys but its own bucket
// in packets of whole keys, and at least one reduction to see that all arrived.
double samplesort_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives) {
  const double nodes = p;
  const double k = std::max(1.0, std::floor(am.packet_payload_bytes / 8.0));
  return nodes * packets(8.0 * a.samplesort_samples, am) + (p - 1) * combine(p, collectives) +
         nodes * (p - 1) * bucket_packets(static_cast<double>(a.samplesort_keys) / p, k) +
         combine(p, collectives);
}

// Per pass: a scan and a reduction per 64-bit word of packed digit counts, and every key sent once (but
// those that stay on their node), in a piece per digit and node, and per node boundary a piece crosses:
// half a packet more per piece on average, for its last, partial packet.
double radixsort_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives) {
  const double nodes = p;
  const int bits = a.radixsort_bits, digits = 1 << bits, passes = (64 + bits - 1) / bits;
  const double total_keys = nodes * a.radixsort_keys;
  const int lane_bits = std::bit_width(static_cast<unsigned long long>(total_keys));
  const double words = std::ceil(digits / std::floor(64.0 / lane_bits));
  const double pieces = nodes * digits + p, leave = (p - 1) / nodes;
  return passes *
         (2 * words * combine(p, collectives) + leave * (packets(8.0 * total_keys, am) + pieces / 2));
}

double fft_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn) {
  const double n = a.fft_points;
  if (resolved_fft_algorithm(a, p) == FftAlgorithm::Transpose)
    return static_cast<double>(p) * (p - 1) * packets(16 * n / p / p, am);
  const int q = fft_exchange_nodes(p);  // the others idle
  return std::countr_zero(static_cast<unsigned>(q)) * static_cast<double>(q) * packets(16 * n / q, am);
}

// Node 0's probes (a put and a get, each with its reply) and its go-ahead to every node, two barriers,
// and the puts and gets, each packet answered.
double getput_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives) {
  const double transfers = static_cast<double>(p) * a.getput_repeats * packets(a.getput_bytes, am);
  return 4 + (p - 1) + 2 * combine(p, collectives) + 2 * 2 * transfers;
}

}  // namespace mppnet::workload::apps
