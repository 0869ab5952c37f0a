// workload/apps/stencil.cpp: 2-D and 3-D nearest-neighbour stencil with halo exchange (Jacobi).
//
// The nodes form a near-square (2-D) or near-cube (3-D) grid px x py (x pz), node id = x + px (y + py z).
// Each holds an edge^dims block of a global grid of doubles with a one-cell halo; outside the global
// grid the value is 0 (fixed boundary). An iteration sends each interior face to the grid neighbour on
// that side (8 x edge^(dims-1) bytes), waits for the neighbours' faces in its halo, and replaces every
// cell by the mean of itself and its 2 x dims neighbours. The initial values are a hash of the seed and
// the global coordinates, so the result does not depend on the machine size and the check recomputes
// the same iterations serially on the whole grid.
//
// A neighbour can be at most one iteration ahead (it needs this node's face of the current iteration
// to finish it), so the receive slots are kept twice, by iteration parity, and counted per parity.
#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "am/node.hpp"
#include "core/rng.hpp"
#include "workload/apps/counted_store.hpp"
#include "workload/apps/processor_grid.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/stencil.hpp"

namespace mppnet::workload::apps {

namespace {

double initial_value(std::uint64_t seed, int gx, int gy, int gz) {
  const std::uint64_t h = core::splitmix64(seed ^ core::splitmix64((static_cast<std::uint64_t>(gx) << 42) ^
                                                                   (static_cast<std::uint64_t>(gy) << 21) ^
                                                                   static_cast<std::uint64_t>(gz)));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

// A block with a one-cell halo, x fastest; in 2-D the z extent is 1.
struct Block {
  std::array<int, 3> ext{};  // with halo
  int dims = 2;
  int index(int x, int y, int z) const { return x + ext[0] * (y + ext[1] * z); }
  int cells() const { return ext[0] * ext[1] * ext[2]; }
  // Range of interior coordinates along axis a ([0, 0] for z in 2-D).
  int lo(int a) const { return a < dims ? 1 : 0; }
  int hi(int a) const { return a < dims ? ext[a] - 2 : 0; }
};

// Visits the cells of the layer at coordinate `layer` across axis `axis`, interior coordinates of the
// other axes, in one fixed order (the sender's pack and the receiver's unpack agree on it).
template <class F>
void for_layer(const Block& b, int axis, int layer, F&& f) {
  std::array<int, 3> c{};
  c[axis] = layer;
  const int u = axis == 0 ? 1 : 0, w = axis == 2 ? 1 : 2;
  for (c[w] = b.lo(w); c[w] <= b.hi(w); ++c[w])
    for (c[u] = b.lo(u); c[u] <= b.hi(u); ++c[u]) f(b.index(c[0], c[1], c[2]));
}

// One Jacobi step over the interior: next = (self + -x + +x + -y + +y [+ -z + +z]) / (2 dims + 1), in
// this order, which the serial check follows too.
template <class Get, class Set>
void jacobi(const Block& b, Get&& get, Set&& set) {
  const int sx = 1, sy = b.ext[0], sz = b.ext[0] * b.ext[1];
  const double scale = 1.0 / (2 * b.dims + 1);
  for (int z = b.lo(2); z <= b.hi(2); ++z)
    for (int y = b.lo(1); y <= b.hi(1); ++y)
      for (int x = b.lo(0); x <= b.hi(0); ++x) {
        const int i = b.index(x, y, z);
        double s = get(i) + get(i - sx) + get(i + sx) + get(i - sy) + get(i + sy);
        if (b.dims == 3) s = s + get(i - sz) + get(i + sz);
        set(i, s * scale);
      }
}

struct StencilNode {
  ArrivalCounters arrivals;
  std::uint32_t grid[2] = {};  // current and next block, with halo
  std::uint32_t send = 0;      // one slot per face
  std::uint32_t receive = 0;   // one slot per face and parity
};

// The serial reference: the same iterations on the whole grid.
std::vector<double> serial(const Block& global, int iterations, std::uint64_t seed) {
  std::vector<double> a(global.cells(), 0.0), b(global.cells(), 0.0);
  for (int z = global.lo(2); z <= global.hi(2); ++z)
    for (int y = global.lo(1); y <= global.hi(1); ++y)
      for (int x = global.lo(0); x <= global.hi(0); ++x)
        a[global.index(x, y, z)] = initial_value(seed, x - 1, y - 1, global.dims == 3 ? z - 1 : 0);
  for (int t = 0; t < iterations; ++t) {
    jacobi(
        global, [&a](int i) { return a[i]; }, [&b](int i, double v) { b[i] = v; });
    std::swap(a, b);
  }
  return a;
}

}  // namespace

static void check_stencil(const AppParams& params, int /*p*/, const am::AmParams& am, int dims) {
  const int edge = params.stencil_edge;
  Block local;
  local.dims = dims;
  local.ext = {edge + 2, edge + 2, dims == 3 ? edge + 2 : 1};
  const std::uint64_t face_bytes = 8ull * (dims == 3 ? edge * edge : edge);
  const std::uint64_t need = 2ull * local.cells() * 8 + 3ull * (2 * dims) * face_bytes + 64;
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError(
        "app.stencil_edge",
        fmt::format(
            "stencil{}d needs {} bytes of memory per node (app.stencil_edge = {}); am.memory_bytes is {}",
            dims, need, edge, am.memory_bytes));
}

void check_stencil2d(const AppParams& params, int p, const am::AmParams& am) {
  check_stencil(params, p, am, 2);
}

void check_stencil3d(const AppParams& params, int p, const am::AmParams& am) {
  check_stencil(params, p, am, 3);
}

StencilRun run_stencil_cells(am::Machine& m, const AppParams& params, std::uint64_t seed, int dims,
                             const ProgressSink& progress) {
  const int p = m.nodes();
  check_stencil(params, p, m.params(), dims);
  const int edge = params.stencil_edge, iterations = params.stencil_iterations;
  const ProcessorGrid pg = processor_grid(p, dims);
  Block local;
  local.dims = dims;
  local.ext = {edge + 2, edge + 2, dims == 3 ? edge + 2 : 1};
  const int face_cells = dims == 3 ? edge * edge : edge;
  const auto face_bytes = static_cast<std::uint32_t>(8 * face_cells);
  const int faces = 2 * dims;

  std::vector<StencilNode> st(p);
  m.attach(st);
  // Copying faces and the Jacobi sweep are local computation (not charged): their phase shows zero time.
  PhaseTimer phases(p, {"send halo faces", "wait for halo faces", "Jacobi update"}, progress);
  m.run([&](am::Node& node) -> am::Task<> {
    auto& s = node.state<StencilNode>();
    const auto bytes = static_cast<std::uint32_t>(local.cells()) * 8;
    s.grid[0] = node.allocate(bytes);
    s.grid[1] = node.allocate(bytes);
    s.send = node.allocate(static_cast<std::uint32_t>(faces) * face_bytes);
    s.receive = node.allocate(static_cast<std::uint32_t>(2 * faces) * face_bytes);
    const std::array<int, 3> me = pg.coordinates(node.id());
    for (int i = 0; i < local.cells(); ++i) {
      node.store_local(s.grid[0] + 8u * i, 0.0);
      node.store_local(s.grid[1] + 8u * i, 0.0);
    }
    for (int z = local.lo(2); z <= local.hi(2); ++z)
      for (int y = local.lo(1); y <= local.hi(1); ++y)
        for (int x = local.lo(0); x <= local.hi(0); ++x)
          node.store_local(s.grid[0] + 8u * local.index(x, y, z),
                           initial_value(seed, me[0] * edge + x - 1, me[1] * edge + y - 1,
                                         dims == 3 ? me[2] * edge + z - 1 : 0));
    std::array<NodeId, 6> neighbour{};
    int present = 0;
    for (int f = 0; f < faces; ++f) {
      neighbour[f] = pg.neighbour(node.id(), f / 2, f % 2 == 0 ? -1 : 1);
      if (neighbour[f] >= 0) ++present;
    }
    for (int t = 0; t < iterations; ++t) {
      const std::uint32_t cur = s.grid[t % 2], next = s.grid[(t + 1) % 2];
      const int parity = t % 2;
      phases.enter(node, 0);
      for (int f = 0; f < faces; ++f) {
        if (neighbour[f] < 0) continue;
        const int axis = f / 2;
        const std::uint32_t slot = s.send + static_cast<std::uint32_t>(f) * face_bytes;
        std::uint32_t k = 0;
        for_layer(local, axis, f % 2 == 0 ? 1 : local.ext[axis] - 2,
                  [&](int i) { node.store_local(slot + 8 * k++, node.load<double>(cur + 8u * i)); });
        // It lands in the neighbour's slot for the face on the other side (f ^ 1), this parity.
        const std::uint32_t remote =
            s.receive + static_cast<std::uint32_t>(parity * faces + (f ^ 1)) * face_bytes;
        co_await counted_store<StencilNode>(node, neighbour[f], slot, remote, face_bytes, parity);
      }
      phases.enter(node, 1);
      co_await counted_sync<StencilNode>(node, parity, static_cast<std::int64_t>(present) * face_bytes);
      phases.enter(node, 2);
      for (int f = 0; f < faces; ++f) {
        if (neighbour[f] < 0) continue;
        const int axis = f / 2;
        const std::uint32_t slot = s.receive + static_cast<std::uint32_t>(parity * faces + f) * face_bytes;
        std::uint32_t k = 0;
        for_layer(local, axis, f % 2 == 0 ? 0 : local.ext[axis] - 1,
                  [&](int i) { node.store_local(cur + 8u * i, node.load<double>(slot + 8 * k++)); });
      }
      jacobi(
          local, [&](int i) { return node.load<double>(cur + 8u * i); },
          [&](int i, double v) { node.store_local(next + 8u * i, v); });
    }
    phases.end(node);
  });

  Block global;
  global.dims = dims;
  global.ext = {pg.size[0] * edge + 2, pg.size[1] * edge + 2, dims == 3 ? pg.size[2] * edge + 2 : 1};
  const std::vector<double> want = serial(global, iterations, seed);
  // The distributed run adds the same terms in the same order, so the results should agree exactly;
  // the tolerance (1e-12 relative to the largest value, at most 1) only allows for a compiler that
  // contracts the sums differently in the two loops.
  constexpr double kTolerance = 1e-12;
  StencilRun out;
  const int gx_cells = pg.size[0] * edge, gy_cells = pg.size[1] * edge;
  out.cells.assign(static_cast<std::size_t>(gx_cells) * gy_cells * (dims == 3 ? pg.size[2] * edge : 1), 0.0);
  AppResult& r = out.result;
  r.phases = phases.phases();
  r.ends = phases.ends();
  r.passed = true;
  double worst = 0;
  for (NodeId v = 0; v < p && r.passed; ++v) {
    const std::array<int, 3> c = pg.coordinates(v);
    const std::uint32_t result = st[v].grid[iterations % 2];
    for (int z = local.lo(2); z <= local.hi(2) && r.passed; ++z)
      for (int y = local.lo(1); y <= local.hi(1) && r.passed; ++y)
        for (int x = local.lo(0); x <= local.hi(0); ++x) {
          const int gx = c[0] * edge + x, gy = c[1] * edge + y, gz = dims == 3 ? c[2] * edge + z : 0;
          const double got = m.node(v).load<double>(result + 8u * local.index(x, y, z));
          out.cells[static_cast<std::size_t>(gx - 1) +
                    static_cast<std::size_t>(gx_cells) *
                        ((gy - 1) + static_cast<std::size_t>(gy_cells) * (gz == 0 ? 0 : gz - 1))] = got;
          const double expected = want[global.index(gx, gy, gz)];
          worst = std::max(worst, std::abs(got - expected));
          if (std::abs(got - expected) <= kTolerance) continue;
          r.passed = false;
          r.check = fmt::format(
              "node {}: cell ({}, {}, {}) of the global grid is {} after {} iterations, the serial "
              "computation gives {}",
              v, gx - 1, gy - 1, gz == 0 ? 0 : gz - 1, got, iterations, expected);
          break;
        }
  }
  const std::string shape = dims == 3 ? fmt::format("{} x {} x {}", pg.size[0], pg.size[1], pg.size[2])
                                      : fmt::format("{} x {}", pg.size[0], pg.size[1]);
  if (r.passed)
    r.check = fmt::format(
        "{} Jacobi iterations on a {} grid of nodes ({} cells per side each) equal the serial computation "
        "(largest difference {:.3g}, tolerance {:g})",
        iterations, shape, edge, worst, kTolerance);
  r.metrics.push_back({"face_bytes", face_bytes});
  r.metrics.push_back({"iterations", iterations});
  r.metrics.push_back({"grid_x", pg.size[0]});
  r.metrics.push_back({"grid_y", pg.size[1]});
  if (dims == 3) r.metrics.push_back({"grid_z", pg.size[2]});
  return out;
}

AppResult run_stencil2d(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress) {
  return run_stencil_cells(m, params, seed, 2, progress).result;
}

AppResult run_stencil3d(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress) {
  return run_stencil_cells(m, params, seed, 3, progress).result;
}

}  // namespace mppnet::workload::apps
