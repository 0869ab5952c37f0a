// workload/apps/apps_values_test.cpp: each application against a value derived independently of its
// code: by hand from the algorithm and the cost model, or by std::sort and std::stable_sort.
#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>

#include "am/simulated_machine.hpp"
#include "core/rng.hpp"
#include "workload/apps/apps_test_util.hpp"
#include "workload/apps/fft.hpp"
#include "workload/apps/permutation.hpp"
#include "workload/apps/processor_grid.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sort_keys.hpp"
#include "workload/apps/stencil.hpp"

namespace mppnet::workload::apps {
namespace {

using testing::router;
using testing::shape;

const topo::TopologyParams kMesh4x4 = shape("mesh", 4, 2);

AppResult run(const std::string& name, const AppParams& params, std::uint64_t seed = 1,
              const topo::TopologyParams& t = kMesh4x4, const net::RouterParams& r = router(),
              const am::AmParams& am = {}) {
  return run_application(*find_application(name), t, r, am, params, seed, 5000);
}

// ---- permutation

TEST(Permutation, DerangementIsTheSameForTheSameSeedAndHasNoFixedPoint) {
  std::vector<NodeId> a(37), b(37), c(37);
  draw_derangement(5, 3, a);
  draw_derangement(5, 3, b);
  draw_derangement(5, 4, c);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);  // another round, another permutation
  std::vector<NodeId> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<NodeId> identity(37);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);
  for (NodeId i = 0; i < 37; ++i) EXPECT_NE(a[i], i);
}

TEST(Permutation, PayloadBytesAreDataPlusTwoArgumentWordsPerPacket) {
  // 40 bytes travel as packets of 16, 16 and 8 data bytes, each with 2 argument words (address,
  // round): 40 + 3 x 8 = 64 bytes per node and round; 16 nodes x 4 rounds x 64 = 4096.
  AppParams p;
  p.permutation_rounds = 4;
  p.permutation_bytes = 40;
  const AppResult r = run("permutation", p);
  ASSERT_TRUE(r.passed) << r.check;
  EXPECT_EQ(r.totals.payload_bytes, 4096);
  EXPECT_EQ(r.totals.handlers, 16 * 4 * 3);
}

// ---- stencil

TEST(ProcessorGrid, FactorsAreNearSquareAndNearCube) {
  using A = std::array<int, 3>;
  EXPECT_EQ(processor_grid(16, 2).size, (A{4, 4, 1}));
  EXPECT_EQ(processor_grid(16, 3).size, (A{4, 2, 2}));
  EXPECT_EQ(processor_grid(36, 2).size, (A{6, 6, 1}));
  EXPECT_EQ(processor_grid(36, 3).size, (A{4, 3, 3}));
  EXPECT_EQ(processor_grid(128, 2).size, (A{16, 8, 1}));
  EXPECT_EQ(processor_grid(128, 3).size, (A{8, 4, 4}));
  EXPECT_EQ(processor_grid(7, 2).size, (A{7, 1, 1}));  // a prime is a line
  const ProcessorGrid g = processor_grid(16, 3);
  // Node 5 of 4 x 2 x 2 is (1, 1, 0).
  EXPECT_EQ(g.neighbour(5, 0, -1), 4);  // (0, 1, 0)
  EXPECT_EQ(g.neighbour(5, 2, 1), 13);  // (1, 1, 1) = 1 + 4 x (1 + 2 x 1)
  EXPECT_EQ(g.neighbour(5, 1, 1), -1);  // y = 1 is the last row
}

TEST(Stencil, TwoDimensionalExchangeOnFourByFourSendsTheFacesCountedByHand) {
  // 4 x 4 nodes: 3 neighbour pairs in each of 4 rows and 4 columns = 24 pairs, 48 faces sent per
  // iteration; a face of edge 3 is 24 bytes = 2 packets; 3 iterations: 3 x 48 x 2 = 288 packets.
  AppParams p;
  p.stencil_edge = 3;
  p.stencil_iterations = 3;
  const AppResult r = run("stencil2d", p);
  ASSERT_TRUE(r.passed) << r.check;
  EXPECT_EQ(r.totals.requests, 288);
  EXPECT_EQ(r.totals.payload_bytes, 3 * 48 * (24 + 2 * 2 * 4));  // data + 2 argument words a packet
}

TEST(Stencil, ThreeDimensionalExchangeOnFourByTwoByTwoSendsTheFacesCountedByHand) {
  // 4 x 2 x 2 nodes: x has 3 pairs in 4 lines, y and z 1 pair in 8 lines each: 12 + 8 + 8 = 28 pairs,
  // 56 faces; a face of edge 2 is 4 cells = 32 bytes = 2 packets; 2 iterations: 2 x 56 x 2 = 224.
  AppParams p;
  p.stencil_edge = 2;
  p.stencil_iterations = 2;
  const AppResult r = run("stencil3d", p);
  ASSERT_TRUE(r.passed) << r.check;
  EXPECT_EQ(r.totals.requests, 224);
}

// The update rule applied by hand, without the stencil's jacobi() or initial_value(): a 2 x 2 grid of
// nodes (the smallest 2-D machine), one cell each. The initial value of global cell (x, y) is the
// documented hash, h = splitmix64(seed ^ splitmix64(x << 42 ^ y << 21 ^ z)), as (h >> 11) / 2^53.
// Outside the grid the value is 0, so cell (0, 0) becomes (a00 + 0 + a10 + 0 + a01) / 5.
TEST(Stencil, TwoByTwoCellsAfterOneAndTwoIterationsAreTheMeanRuleByHand) {
  constexpr std::uint64_t kSeed = 7;
  const auto initial = [](int x, int y) {
    const std::uint64_t h = core::splitmix64(kSeed ^ core::splitmix64((static_cast<std::uint64_t>(x) << 42) ^
                                                                      (static_cast<std::uint64_t>(y) << 21)));
    return static_cast<double>(h >> 11) / 9007199254740992.0;
  };
  const double a00 = initial(0, 0), a10 = initial(1, 0), a01 = initial(0, 1), a11 = initial(1, 1);
  // One iteration: every cell has exactly two neighbours inside the grid.
  const double b00 = (a00 + a10 + a01) / 5, b10 = (a10 + a00 + a11) / 5, b01 = (a01 + a11 + a00) / 5,
               b11 = (a11 + a01 + a10) / 5;
  AppParams p;
  p.stencil_edge = 1;
  for (const int iterations : {1, 2}) {
    p.stencil_iterations = iterations;
    am::SimulatedMachine sim(shape("mesh", 2, 2), router(), {}, kSeed, 5000);
    const StencilRun r = run_stencil_cells(sim.machine, p, kSeed, 2);
    ASSERT_TRUE(r.result.passed) << r.result.check;
    ASSERT_EQ(r.cells.size(), 4u);  // x fastest: (0, 0), (1, 0), (0, 1), (1, 1)
    if (iterations == 1) {
      EXPECT_NEAR(r.cells[0], b00, 1e-15);
      EXPECT_NEAR(r.cells[1], b10, 1e-15);
      EXPECT_NEAR(r.cells[2], b01, 1e-15);
      EXPECT_NEAR(r.cells[3], b11, 1e-15);
    } else {
      EXPECT_NEAR(r.cells[0], (b00 + b10 + b01) / 5, 1e-15);
      EXPECT_NEAR(r.cells[3], (b11 + b01 + b10) / 5, 1e-15);
    }
  }
}

// ---- sorts

// With one key per node, node v's key ends on the node of its rank; it needs a message unless its
// rank is v.
int keys_that_move(const std::vector<std::uint64_t>& keys) {
  std::vector<std::uint64_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  int moved = 0;
  for (std::size_t v = 0; v < keys.size(); ++v)
    moved += std::lower_bound(sorted.begin(), sorted.end(), keys[v]) - sorted.begin() != static_cast<long>(v);
  return moved;
}

std::vector<std::uint64_t> one_key_per_node(std::uint64_t seed, int p) {
  std::vector<std::uint64_t> keys;
  for (NodeId v = 0; v < p; ++v) keys.push_back(sort_input(seed, v, 1)[0]);
  return keys;
}

TEST(SampleSort, OneKeyPerNodeSendsTheMessagesCountedByHand) {
  // 16 nodes, 1 key and 1 sample each. Samples: 15 packets to node 0. Splitters: 15 broadcasts, each a
  // software combine of 15 requests up the tree and 15 down. Keys: one packet per key that leaves its
  // node (each bucket holds exactly the key of its rank), and no message for an empty bucket. Then the
  // reductions of sent minus received, 30 requests each, until one sums to zero: at least one.
  AppParams p;
  p.samplesort_keys = 1;
  p.samplesort_samples = 1;
  const AppResult r = run("samplesort", p, 7);
  ASSERT_TRUE(r.passed) << r.check;
  double reductions = 0;
  for (const auto& [name, value] : r.metrics)
    if (name == "termination_reductions") reductions = value;
  EXPECT_GE(reductions, 2);  // a key was still in flight at the first sum: the loop ran again
  EXPECT_EQ(r.totals.requests,
            15 + 15 * 30 + keys_that_move(one_key_per_node(7, 16)) + 30 * static_cast<int>(reductions));
}

TEST(RadixSort, OneKeyPerNodeSendsTheMessagesCountedByHand) {
  // 16 nodes, 1 key each, 8 passes of 8 bits. A lane holds P n = 16 (5 bits), so an operand packs 12
  // digits' counts and a pass takes ceil(256 / 12) = 22 scans and 22 reductions; each is one message up
  // and one down per node but the root on the software tree, 2 x 15. Then one packet per key whose place
  // in the order after the pass (a stable sort of the previous order by the pass's digit) is on another
  // node.
  AppParams p;
  p.radixsort_keys = 1;
  p.radixsort_bits = 8;
  const AppResult r = run("radixsort", p, 3);
  ASSERT_TRUE(r.passed) << r.check;
  std::vector<std::uint64_t> order = one_key_per_node(3, 16);
  std::int64_t expected = 0;
  for (int pass = 0; pass < 8; ++pass) {
    std::vector<std::uint64_t> next = order;
    std::stable_sort(next.begin(), next.end(), [pass](std::uint64_t a, std::uint64_t b) {
      return ((a >> (8 * pass)) & 255) < ((b >> (8 * pass)) & 255);
    });
    for (std::size_t i = 0; i < order.size(); ++i)
      expected += std::find(next.begin(), next.end(), order[i]) - next.begin() != static_cast<long>(i);
    expected += 2 * 22 * 2 * 15;
    order = next;
  }
  EXPECT_EQ(r.totals.requests, expected);
}

TEST(Sorts, CheckRejectsUnsortedLostAndAlteredKeys) {
  const std::vector<std::vector<std::uint64_t>> in = {{5, 1}, {3, 9}};
  EXPECT_EQ(check_sorted_permutation(in, {{1, 3}, {5, 9}}), "");
  EXPECT_NE(check_sorted_permutation(in, {{1, 5}, {3, 9}}), "");  // node 1 starts below node 0's end
  EXPECT_NE(check_sorted_permutation(in, {{1, 3}, {5}}), "");     // a key lost
  EXPECT_NE(check_sorted_permutation(in, {{1, 3}, {5, 8}}), "");  // a key altered
  EXPECT_NE(check_sorted_permutation(in, {{1, 3}, {3, 9}}), "");  // a duplicate for a key
}

// ---- fft

FftRun fft(const AppParams& params, const topo::TopologyParams& t = kMesh4x4) {
  am::SimulatedMachine sim(t, router(), {}, 1);
  return run_fft_spectrum(sim.machine, params, 1);
}

TEST(Fft, ImpulseGivesAFlatSpectrum) {
  // x = delta[j]: X[k] = sum_j delta[j] W^(jk) = 1 for every k.
  AppParams p;
  p.fft_points = 1024;
  p.fft_signal = FftSignal::Impulse;
  const FftRun f = fft(p);
  ASSERT_TRUE(f.result.passed) << f.result.check;
  for (int k = 0; k < 1024; ++k) ASSERT_LT(std::abs(f.spectrum[k] - std::complex<double>(1, 0)), 1e-12) << k;
}

TEST(Fft, PureToneGivesOneLineOfHeightN) {
  // x[j] = exp(2 pi i 5 j / N): X[5] = N and every other X[k] = 0 (a geometric sum of N roots of 1).
  // The tolerance 1e-9 N is the app's own bound for sum|x| = N. On 6 x 6 nodes N = 1296 = 36 x 36, so
  // the local transforms are direct DFTs of 36 points rather than radix 2.
  for (const auto& [t, n] : {std::pair{kMesh4x4, 1024}, std::pair{shape("torus", 6, 2), 1296}}) {
    AppParams p;
    p.fft_points = n;
    p.fft_signal = FftSignal::Tone;
    p.fft_tone = 5;
    const FftRun f = fft(p, t);
    ASSERT_TRUE(f.result.passed) << f.result.check;
    for (int k = 0; k < n; ++k) {
      const std::complex<double> want = k == 5 ? std::complex<double>(n, 0) : std::complex<double>(0, 0);
      ASSERT_LT(std::abs(f.spectrum[k] - want), 1e-9 * n) << "N = " << n << ", k = " << k;
    }
  }
}

TEST(Fft, BinaryExchangeGivesTheToneLineAndTheTransposesSpectrum) {
  // The same tone on 16 nodes by the binary exchange: one line of height N at 5 whatever the number of
  // points per node (1, 4 and 64), and on 1,024 points the transpose's spectrum point by point.
  for (const int n : {16, 64, 1024}) {
    AppParams p;
    p.fft_points = n;
    p.fft_signal = FftSignal::Tone;
    p.fft_tone = 5;
    p.fft_algorithm = FftAlgorithm::BinaryExchange;
    const FftRun f = fft(p);
    ASSERT_TRUE(f.result.passed) << f.result.check;
    for (int k = 0; k < n; ++k) {
      const std::complex<double> want = k == 5 ? std::complex<double>(n, 0) : std::complex<double>(0, 0);
      ASSERT_LT(std::abs(f.spectrum[k] - want), 1e-9 * n) << "N = " << n << ", k = " << k;
    }
  }
  AppParams p;
  p.fft_points = 1024;
  p.fft_algorithm = FftAlgorithm::BinaryExchange;
  const FftRun exchange = fft(p);
  p.fft_algorithm = FftAlgorithm::Transpose;
  const FftRun transpose = fft(p);
  ASSERT_TRUE(exchange.result.passed) << exchange.result.check;
  for (int k = 0; k < 1024; ++k) ASSERT_LT(std::abs(exchange.spectrum[k] - transpose.spectrum[k]), 1e-9) << k;
}

TEST(Fft, BinaryExchangeOnASizeThatIsNotAPowerOfTwoUsesThePowerOfTwoBelow) {
  // 36 nodes (a 6 x 6 torus): 32 of them take part, 2 points each; the tone's line is still N at 5.
  AppParams p;
  p.fft_points = 64;
  p.fft_signal = FftSignal::Tone;
  p.fft_tone = 5;
  p.fft_algorithm = FftAlgorithm::BinaryExchange;
  const FftRun f = fft(p, shape("torus", 6, 2));
  ASSERT_TRUE(f.result.passed) << f.result.check;
  EXPECT_NE(f.result.check.find("over 32 of the 36 nodes"), std::string::npos) << f.result.check;
  for (int k = 0; k < 64; ++k)
    ASSERT_LT(std::abs(f.spectrum[k] - std::complex<double>(k == 5 ? 64 : 0, 0)), 1e-9 * 64) << k;
}

TEST(Fft, BinaryExchangeSendsOneBlockPerExchangeAndNode) {
  // 16 nodes, 64 points: 4 exchanges, in each every node sends its 4 points (64 bytes) to its partner
  // in packets of am.packet_payload_bytes = 16: 16 x 4 x 4 requests.
  AppParams p;
  p.fft_points = 64;
  p.fft_algorithm = FftAlgorithm::BinaryExchange;
  const AppResult r = run("fft", p, 1);
  ASSERT_TRUE(r.passed) << r.check;
  EXPECT_EQ(r.totals.requests, 16 * 4 * 4);
}

// ---- getput

TEST(GetPut, IdleOneWordRoundTripsAreTheCostModelSums) {
  // Mesh neighbours 0 and 1 (2 routers), processor clock = network cycle = 10 ns, interrupts, the
  // generic cost model. Network time of an S-flit packet: L + R (P + L) + S - 1 = 1 + 2 x 2 + S - 1.
  // Put of one word: request with 1 argument word + 4 data bytes (2 words): send 20 + 2 = 22;
  //   12 bytes = 3 flits: 7; handler 10 + 20 + 2 = 32 plus the ack's send 20 + 0 = 52;
  //   the ack is 4 bytes = 1 flit: 5; ack handler 10 + 20 = 30.   22 + 7 + 52 + 5 + 30 = 116 cycles.
  // Get of one word: request with 3 words (address, length, local address): send 20 + 3 = 23;
  //   16 bytes = 4 flits: 8; handler 10 + 20 + 3 = 33 plus the reply's send of 1 word + 4 bytes,
  //   20 + 2 = 22: 55; the reply is 12 bytes = 3 flits: 7; handler 10 + 20 + 2 = 32.
  //   23 + 8 + 55 + 7 + 32 = 125 cycles.
  net::RouterParams r = router();
  r.cycle_ps = 10000;
  am::AmParams am;
  am.clock_ps = 10000;
  AppParams p;
  p.getput_distance = 1;
  const AppResult res = run("getput", p, 1, kMesh4x4, r, am);
  ASSERT_TRUE(res.passed) << res.check;
  auto metric = [&res](const std::string& name) {
    for (const auto& [k, v] : res.metrics)
      if (k == name) return v;
    return -1.0;
  };
  EXPECT_EQ(metric("put_round_trip_ps"), 116 * 10000);
  EXPECT_EQ(metric("get_round_trip_ps"), 125 * 10000);
}

}  // namespace
}  // namespace mppnet::workload::apps
