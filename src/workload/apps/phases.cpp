// workload/apps/phases.cpp: time per phase and per node, and progress reports.
#include "workload/apps/phases.hpp"

#include <algorithm>

#include "am/machine.hpp"

namespace mppnet::workload::apps {

namespace {
constexpr int kBeforeFirst = -1, kEnded = -2;
// Marks and ticks between two progress reports: a few thousand keep the sink's cost (a clock read)
// negligible against the simulation, while a run of even a few seconds reports several times.
constexpr std::uint32_t kCallsPerReport = 4096;
}  // namespace

PhaseTimer::PhaseTimer(int nodes, std::vector<std::string> names, const ProgressSink& progress)
    : names_(std::move(names)),
      progress_(progress),
      nodes_(nodes),
      spent_(static_cast<std::size_t>(nodes) * names_.size(), 0),
      current_(nodes, kBeforeFirst),
      since_(nodes, 0),
      end_(nodes, 0) {}

void PhaseTimer::enter(const am::Node& node, int phase) {
  const NodeId v = node.id();
  const Picoseconds now = node.now();
  if (current_[v] >= 0) spent_[static_cast<std::size_t>(v) * names_.size() + current_[v]] += now - since_[v];
  current_[v] = phase;
  since_[v] = now;
  maybe_report(node);
}

void PhaseTimer::end(const am::Node& node) {
  const NodeId v = node.id();
  enter(node, kEnded);
  end_[v] = node.now();
}

void PhaseTimer::tick(const am::Node& node) {
  maybe_report(node);
}

void PhaseTimer::maybe_report(const am::Node& node) {
  latest_ = std::max(latest_, node.now());
  if (!progress_ || ++calls_ % kCallsPerReport != 0) return;
  Progress p;
  p.simulated_ps = latest_;
  p.nodes = nodes_;
  const am::MachineTotals t = node.machine().totals();
  p.messages = t.requests + t.replies;
  std::vector<int> in(names_.size(), 0);
  for (const int c : current_) {
    if (c == kEnded) ++p.nodes_ended;
    if (c >= 0) ++in[static_cast<std::size_t>(c)];
  }
  const auto most = std::max_element(in.begin(), in.end());
  if (most != in.end() && *most > 0) {
    p.phase = names_[static_cast<std::size_t>(most - in.begin())];
    p.nodes_in_phase = *most;
  }
  progress_(p);
}

NodeEnds PhaseTimer::ends() const {
  NodeEnds e;
  if (nodes_ == 0) return e;
  e.fastest_ps = end_[0];
  double sum = 0;
  for (NodeId v = 0; v < nodes_; ++v) {
    if (e.slowest < 0 || end_[v] > e.slowest_ps) {
      e.slowest = v;
      e.slowest_ps = end_[v];
    }
    e.fastest_ps = std::min(e.fastest_ps, end_[v]);
    sum += static_cast<double>(end_[v]);
  }
  e.mean_ps = static_cast<Picoseconds>(sum / nodes_);
  return e;
}

std::vector<PhaseTime> PhaseTimer::phases() const {
  const NodeEnds e = ends();
  std::vector<PhaseTime> out;
  const std::size_t k = names_.size();
  for (std::size_t i = 0; i < k; ++i) {
    PhaseTime t{names_[i]};
    double sum = 0;
    for (NodeId v = 0; v < nodes_; ++v) {
      const Picoseconds s = spent_[static_cast<std::size_t>(v) * k + i];
      sum += static_cast<double>(s);
      t.max_ps = std::max(t.max_ps, s);
    }
    t.mean_ps = nodes_ == 0 ? 0 : static_cast<Picoseconds>(sum / nodes_);
    if (e.slowest >= 0) t.slowest_node_ps = spent_[static_cast<std::size_t>(e.slowest) * k + i];
    out.push_back(t);
  }
  return out;
}

}  // namespace mppnet::workload::apps
