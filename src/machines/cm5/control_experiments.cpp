// machines/cm5/control_experiments.cpp: the control network's validation runs and their serial references.
#include "machines/cm5/control_experiments.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/rng.hpp"

namespace mppnet::machines::cm5 {

namespace {

using Wide = __int128;

constexpr Cycle kExperimentLimit = 1'000'000;  // cycles; every run here ends far sooner

Wide unsigned_value(const std::vector<std::uint32_t>& w) {
  Wide u = 0;
  for (std::uint32_t x : w) u = u << 32 | x;
  return u;
}

Wide signed_value(const std::vector<std::uint32_t>& w) {
  const Wide u = unsigned_value(w);
  const int bits = 32 * static_cast<int>(w.size());
  return (w.front() >> 31) != 0 ? u - (Wide{1} << bits) : u;
}

std::vector<std::uint32_t> words_of(Wide v, int k) {
  std::vector<std::uint32_t> w(static_cast<std::size_t>(k));
  for (int i = k - 1; i >= 0; --i) {
    w[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(v);
    v >>= 32;  // arithmetic shift keeps two's complement for negative values
  }
  return w;
}

// Whole-operand arithmetic: values as exact wide integers, reduced to k words at the end.
struct Serial {
  Combiner op;
  int k;
  Wide identity() const { return op == Combiner::MaxSigned ? -(Wide{1} << (32 * k - 1)) : 0; }
  Wide value(const std::vector<std::uint32_t>& w) const {
    return op == Combiner::MaxSigned || op == Combiner::AddSigned ? signed_value(w) : unsigned_value(w);
  }
  Wide apply(Wide a, Wide b) const {
    switch (op) {
      case Combiner::Or:
        return a | b;
      case Combiner::Xor:
        return a ^ b;
      case Combiner::MaxSigned:
        return std::max(a, b);
      case Combiner::AddSigned:
      case Combiner::AddUnsigned:
        return a + b;
    }
    return 0;
  }
  Expected expected(Wide v) const {
    const Wide range = Wide{1} << (32 * k);
    bool overflow = false;
    if (op == Combiner::AddUnsigned) overflow = v >= range;
    if (op == Combiner::AddSigned) overflow = v < -(range / 2) || v >= range / 2;
    return {words_of(v, k), overflow};
  }
};

std::uint32_t random_word(core::RandomStream& r) {
  // Edge values make carries, sign changes and overflows common.
  static constexpr std::uint32_t kEdges[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu};
  const std::uint64_t pick = r.below(3);
  if (pick == 0) return kEdges[r.below(std::size(kEdges))];
  return static_cast<std::uint32_t>(r.next_u64());
}

}  // namespace

std::vector<ControlResult> combine_once(ControlNetwork& net, CombineKind kind, Combiner op,
                                        const std::vector<std::vector<std::uint32_t>>& operands,
                                        const std::vector<bool>& segment_starts) {
  const int n = net.leaves();
  std::vector<bool> present(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    present[v] = !net.abstains(v, OpClass::Combine);
    if (!present[v]) continue;
    CombinePush p{.kind = kind,
                  .op = op,
                  .count = static_cast<int>(operands[v].size()),
                  .segment_start = segment_starts[v]};
    std::copy(operands[v].begin(), operands[v].end(), p.words.begin());
    if (!net.push_combine(v, p)) throw std::logic_error("combine_once: an NI FIFO is full");
  }
  std::vector<ControlResult> out(static_cast<std::size_t>(n));
  int missing = static_cast<int>(std::count(present.begin(), present.end(), true));
  for (Cycle t = net.slot_time(net.next_slot()); missing > 0 && t < kExperimentLimit;
       t += net.params().slot_cycles) {
    net.run_until(t);
    for (int v = 0; v < n; ++v) {
      if (!present[v] || out[v].count > 0) continue;
      if (auto r = net.pop(v, OpClass::Combine, t)) {
        out[v] = *r;
        --missing;
      }
    }
  }
  return out;
}

std::vector<Expected> reference_combine(CombineKind kind, Combiner op,
                                        const std::vector<std::vector<std::uint32_t>>& operands,
                                        const std::vector<bool>& segment_starts,
                                        const std::vector<bool>& present) {
  const int n = static_cast<int>(operands.size());
  int k = 1;
  for (int v = 0; v < n; ++v) {
    if (present[v]) k = static_cast<int>(operands[v].size());
  }
  const Serial s{op, k};
  std::vector<Expected> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (!present[i]) continue;
    Wide acc = s.identity();
    if (kind == CombineKind::Reduce) {
      for (int j = 0; j < n; ++j) {
        if (present[j]) acc = s.apply(acc, s.value(operands[j]));
      }
    } else if (kind == CombineKind::ForwardScan) {
      // The elements before i back to its segment's start; a segment's first element gets the identity.
      int start = 0;
      for (int j = i; j >= 0; --j) {
        if (present[j] && segment_starts[j]) {
          start = j;
          break;
        }
      }
      for (int j = start; j < i; ++j) {
        if (present[j]) acc = s.apply(acc, s.value(operands[j]));
      }
    } else {
      // The elements after i up to the next segment start.
      for (int j = i + 1; j < n; ++j) {
        if (!present[j]) continue;
        if (segment_starts[j]) break;
        acc = s.apply(acc, s.value(operands[j]));
      }
    }
    out[i] = s.expected(acc);
  }
  return out;
}

std::vector<std::int64_t> paper_scan(CombineKind kind) {
  ControlNetwork net({.leaves = 8});
  const std::vector<std::uint32_t> x = {3, 2, 0, 4, 2, 6, 5, 8};
  std::vector<std::vector<std::uint32_t>> operands;
  for (std::uint32_t v : x) operands.push_back({v});
  const auto results = combine_once(net, kind, Combiner::AddSigned, operands, std::vector<bool>(8, false));
  std::vector<std::int64_t> out;
  for (const ControlResult& r : results) out.push_back(static_cast<std::int32_t>(r.words[0]));
  return out;
}

std::int64_t random_combine_errors(const RandomCombines& spec) {
  core::RandomStream r(spec.seed, 0, core::Stream::Setup);
  constexpr CombineKind kKinds[] = {CombineKind::Reduce, CombineKind::ForwardScan, CombineKind::BackwardScan};
  constexpr Combiner kOps[] = {Combiner::Or, Combiner::Xor, Combiner::MaxSigned, Combiner::AddSigned,
                               Combiner::AddUnsigned};
  std::int64_t errors = 0;
  for (int t = 0; t < spec.trials; ++t) {
    ControlNetwork net({.leaves = spec.leaves});
    const CombineKind kind = kKinds[t % 3];
    const Combiner op = kOps[(t / 3) % 5];
    std::vector<std::vector<std::uint32_t>> operands(static_cast<std::size_t>(spec.leaves));
    std::vector<bool> segments(static_cast<std::size_t>(spec.leaves)), present(segments.size(), true);
    for (int v = 0; v < spec.leaves; ++v) {
      for (int w = 0; w < spec.words; ++w) operands[v].push_back(random_word(r));
      segments[v] = spec.segments && kind != CombineKind::Reduce && r.below(5) == 0;
      if (spec.abstain > 0 && r.uniform01() < spec.abstain) {
        present[v] = false;
        if (spec.map_out) {
          net.map_out(v);
        } else {
          net.set_abstain(v, OpClass::Combine, true);
        }
      }
    }
    const auto got = combine_once(net, kind, op, operands, segments);
    const auto want = reference_combine(kind, op, operands, segments, present);
    for (int v = 0; v < spec.leaves; ++v) {
      if (!present[v]) {
        errors += got[v].count != 0;  // an abstaining leaf receives nothing
        continue;
      }
      const std::vector<std::uint32_t> words(got[v].words.begin(), got[v].words.begin() + got[v].count);
      errors += words != want[v].words || got[v].overflow != want[v].overflow;
    }
  }
  return errors;
}

int mismatch_seen_by(int leaves) {
  ControlNetwork net({.leaves = leaves});
  for (int v = 0; v < leaves; ++v) {
    net.push_combine(v, {.kind = v == 0 ? CombineKind::ForwardScan : CombineKind::Reduce,
                         .op = Combiner::AddSigned,
                         .words = {1}});
  }
  net.run_until(kExperimentLimit);
  int seen = 0;
  for (int v = 0; v < leaves; ++v)
    seen += net.error_visible(kExperimentLimit) && net.pop(v, OpClass::Combine, kExperimentLimit);
  return seen;
}

std::int64_t broadcast_collisions(int leaves, bool same_slot) {
  ControlNetwork net({.leaves = leaves});
  const std::uint32_t word = 7;
  net.push_broadcast(0, BroadcastKind::User, {&word, 1});
  if (!same_slot) net.run_until(net.latency_cycles() + 2 * net.params().slot_cycles);
  net.push_broadcast(leaves - 1, BroadcastKind::User, {&word, 1});
  net.run_until(kExperimentLimit);
  return net.errors().broadcast_collision;
}

PriorityRun broadcast_overtakes_scan(int leaves) {
  ControlNetwork net({.leaves = leaves});
  std::vector<std::vector<std::uint32_t>> operands;
  for (int v = 0; v < leaves; ++v) operands.push_back({static_cast<std::uint32_t>(3 * v + 1)});
  for (int v = 0; v + 1 < leaves; ++v) {
    net.push_combine(
        v, {.kind = CombineKind::ForwardScan, .op = Combiner::AddUnsigned, .words = {operands[v][0]}});
  }
  const Cycle slot = net.params().slot_cycles;
  net.run_until(5 * slot);  // the scan now waits at every ancestor of the last leaf
  const std::uint32_t word = 42;
  net.push_broadcast(1, BroadcastKind::Supervisor, {&word, 1});
  net.run_until(20 * slot);
  net.push_combine(
      leaves - 1,
      {.kind = CombineKind::ForwardScan, .op = Combiner::AddUnsigned, .words = {operands.back()[0]}});
  net.run_until(kExperimentLimit);
  PriorityRun out;
  const auto want =
      reference_combine(CombineKind::ForwardScan, Combiner::AddUnsigned, operands,
                        std::vector<bool>(operands.size(), false), std::vector<bool>(operands.size(), true));
  Cycle last_broadcast = 0, first_scan = kExperimentLimit;
  for (int v = 0; v < leaves; ++v) {
    const auto b = net.pop_broadcast(v, kExperimentLimit);
    const auto s = net.pop(v, OpClass::Combine, kExperimentLimit);
    if (!b || !s || b->words[0] != word) return out;
    last_broadcast = std::max(last_broadcast, b->time);
    first_scan = std::min(first_scan, s->time);
    out.scan_errors += s->words[0] != want[v].words[0];
  }
  out.broadcast_first = last_broadcast < first_scan;
  return out;
}

double pipelined_slots(int leaves, int n) {
  ControlNetwork net({.leaves = leaves});
  for (int i = 0; i < n; ++i) {
    for (int v = 0; v < leaves; ++v) {
      net.push_combine(v, {.kind = CombineKind::Reduce, .op = Combiner::AddSigned, .words = {1}});
    }
  }
  net.run_until(kExperimentLimit);
  Cycle first = -1, last = -1;
  while (auto r = net.pop(0, OpClass::Combine, kExperimentLimit)) {
    if (first < 0) first = r->time;
    last = r->time;
  }
  return static_cast<double>(last - first) / net.params().slot_cycles;
}

Cycle split_phase_wait(int leaves, Cycle work) {
  ControlNetwork net({.leaves = leaves});
  for (int v = 0; v < leaves; ++v) net.push_sync_or(v, false);
  net.run_until(work);
  Cycle waited = 0;
  for (int v = 0; v < leaves; ++v) {
    Cycle t = work;
    while (!net.has_result(v, OpClass::SyncOr, t)) net.run_until(++t);
    net.pop(v, OpClass::SyncOr, t);
    waited = std::max(waited, t - work);
  }
  return waited;
}

AsyncOrRun async_or_run(int leaves) {
  auto reduce_done = [leaves](ControlNetwork& net) {
    for (int v = 0; v < leaves; ++v) {
      net.push_combine(
          v,
          {.kind = CombineKind::Reduce, .op = Combiner::MaxSigned, .words = {static_cast<std::uint32_t>(v)}});
    }
    net.run_until(kExperimentLimit);
    return net.pop(leaves - 1, OpClass::Combine, kExperimentLimit);
  };
  ControlNetwork alone({.leaves = leaves});
  const auto want = reduce_done(alone);
  ControlNetwork net({.leaves = leaves});
  for (int v = 0; v < leaves; v += 2) net.enable_async_or_interrupt(v, 0, true, 0);
  const Cycle raised = 5;  // not on a slot boundary
  net.set_async_or(leaves / 2, 0, true, raised);
  const auto got = reduce_done(net);
  AsyncOrRun out;
  out.delay = net.async_or_raised(0, kExperimentLimit) - raised;
  const Cycle slot = net.params().slot_cycles;
  out.expected = (raised + slot - 1) / slot * slot + net.latency_cycles() - raised;
  out.combine_unchanged = want && got && want->words == got->words && want->time == got->time &&
                          net.async_or(0, kExperimentLimit) && !net.async_or(0, raised + out.delay - 1);
  for (int v = 0; v < leaves; ++v)
    out.interrupted += net.async_or_interrupts(v, 0, kExperimentLimit) == (v % 2 == 0 ? 1 : 0);
  return out;
}

std::int64_t flush_resume_differences(int leaves, int scans, Cycle flush_at) {
  core::RandomStream r(3, 0, core::Stream::Setup);
  std::vector<std::vector<std::uint32_t>> values(static_cast<std::size_t>(leaves));
  for (auto& v : values) {
    for (int i = 0; i < scans; ++i) v.push_back(static_cast<std::uint32_t>(r.below(1000)));
  }
  auto run = [&](bool interrupt) {
    ControlNetwork net({.leaves = leaves});
    for (int i = 0; i < scans; ++i) {
      for (int v = 0; v < leaves; ++v) {
        net.push_combine(v, {.kind = CombineKind::ForwardScan,
                             .op = Combiner::AddSigned,
                             .words = {values[v][static_cast<std::size_t>(i)]},
                             .segment_start = i % 2 == 1 && v == 3});
      }
    }
    if (interrupt) {
      net.run_until(flush_at);
      net.flush(flush_at);
      net.run_until(flush_at + 1000);  // another user's timeslice
      net.resume();
    }
    net.run_until(kExperimentLimit);
    std::vector<std::uint32_t> out;
    for (int v = 0; v < leaves; ++v) {
      while (auto res = net.pop(v, OpClass::Combine, kExperimentLimit)) out.push_back(res->words[0]);
    }
    return out;
  };
  const auto a = run(false), b = run(true);
  std::int64_t differ = std::abs(static_cast<std::int64_t>(a.size()) - static_cast<std::int64_t>(b.size()));
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) differ += a[i] != b[i];
  return differ;
}

}  // namespace mppnet::machines::cm5
