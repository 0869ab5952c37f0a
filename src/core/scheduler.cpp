// core/scheduler.cpp: the run loop of core::Scheduler.
#include "core/scheduler.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::core {

DomainId Scheduler::add_domain(std::string name, Picoseconds period_ps) {
  MPPNET_ASSERT(period_ps > 0, "a clock period must be positive");
  Domain d;
  d.name = std::move(name);
  d.period_ps = period_ps;
  domains_.push_back(std::move(d));
  return static_cast<DomainId>(domains_.size() - 1);
}

ComponentId Scheduler::add(DomainId d, Component& c, bool active) {
  MPPNET_ASSERT(d >= 0 && d < static_cast<DomainId>(domains_.size()), "no such clock domain");
  const auto id = static_cast<ComponentId>(components_.size());
  components_.push_back({&c, d, false, 0});
  domains_[d].members.push_back(id);
  if (active) activate(id);
  return id;
}

void Scheduler::activate(ComponentId c) {
  Entry& e = components_[c];
  if (e.active) return;
  Domain& d = domains_[e.domain];
  // The first edge at or after now that the domain has not run yet.
  const Cycle at_or_after_now = (now_ + d.period_ps - 1) / d.period_ps;
  e.wake_cycle = std::max(d.last_cycle + 1, at_or_after_now);
  e.active = true;
  if (d.active_count++ == 0) {
    d.next_cycle = e.wake_cycle;
    edges_changed_ = true;
  }
}

void Scheduler::schedule(Picoseconds t, ComponentId target, std::uint32_t kind, std::uint64_t data) {
  MPPNET_ASSERT(t >= now_, "an event was scheduled in the past");
  MPPNET_ASSERT(target >= 0 && target < static_cast<ComponentId>(components_.size()), "no such component");
  events_.push(t, {target, kind, data});
  next_event_ps_ = std::min(next_event_ps_, t);
}

DomainId Scheduler::next_domain() const {
  DomainId best = -1;
  Picoseconds best_time = kForever;
  for (DomainId i = 0; i < static_cast<DomainId>(domains_.size()); ++i) {
    const Domain& d = domains_[i];
    if (d.active_count == 0) continue;
    const Picoseconds t = d.next_cycle * d.period_ps;
    if (t < best_time) {  // strict: equal times go to the lower domain id
      best = i;
      best_time = t;
    }
  }
  return best;
}

void Scheduler::run_edge(Domain& d) {
  const Cycle cycle = d.next_cycle;
  d.last_cycle = cycle;
  for (const ComponentId id : d.members) {
    Entry& e = components_[id];
    // A component woken during this edge (by one ticked before it) waits for the next edge: within an
    // edge nobody sees what another did in it.
    if (!e.active || e.wake_cycle > cycle) continue;
    if (!e.component->tick(cycle)) {
      e.active = false;
      --d.active_count;
    }
  }
  for (const auto& fn : d.after_edge) fn(cycle);
  d.next_cycle = cycle + 1;
  edges_changed_ = true;
}

Scheduler::Stop Scheduler::run(const Limits& limits) {
  for (;;) {
    // The next edge changes only when a domain wakes or runs an edge, not at every event.
    if (edges_changed_) {
      next_ = next_domain();
      next_edge_ps_ = next_ < 0 ? kForever : domains_[next_].next_cycle * domains_[next_].period_ps;
      edges_changed_ = false;
    }
    const DomainId next = next_;
    const Picoseconds edge_time = next_edge_ps_;
    const Picoseconds event_time = next_event_ps_;
    if (event_time <= edge_time && event_time != kForever) {
      if (event_time > limits.until_ps) return Stop::TimeLimit;
      const auto e = events_.pop();
      next_event_ps_ = events_.empty() ? kForever : events_.top_time();
      now_ = e.time;
      components_[e.payload.target].component->on_event(e.payload.kind, e.payload.data);
    } else {
      if (next < 0) return Stop::Idle;
      if (edge_time > limits.until_ps) return Stop::TimeLimit;
      now_ = edge_time;
      run_edge(domains_[next]);
      const Watchdog& w = limits.watchdog;
      if (next == w.domain && w.quiet() > w.cycles && w.stuck()) return Stop::NoProgress;
    }
    if (limits.stop && limits.stop()) return Stop::Predicate;
  }
}

}  // namespace mppnet::core
