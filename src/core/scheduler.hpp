// core/scheduler.hpp: the one run loop: clock domains, their active components, and sparse timed events.
//
// Every machine joins parts that run on different clocks (the CM-5's data network at 40 MHz beside its
// processors at 32 MHz) and parts that act only now and then (a node program waking from a compute, a
// fault injection). The scheduler holds both:
//  - a clock domain has a period in picoseconds; its edges fall at multiples of the period. A component
//    belongs to one domain and is ticked at that domain's edges while it is active. An idle component
//    costs nothing: it returns false from tick() and is not visited again until activate();
//  - a timed event is addressed to a component and kept in a calendar queue (core/calendar_queue.hpp).
//
// Order (fixed, so that results never depend on how the work is split):
//  1. by time;
//  2. at equal times, timed events before clock edges: an event at time t is an input that the cycle at
//     t sees (a packet a program sends at t enters the network in the first cycle at or after t);
//  3. events of equal time in the order they were scheduled (the calendar queue is FIFO on ties);
//  4. edges of equal time by domain id, and within a domain by component id.
// A tick is the evaluate phase of the two-phase cycle (ARCHITECTURE.md): a component reads only what was
// delivered to it in earlier cycles and sends with a delay of at least one cycle, so the order in (4)
// cannot change a result; it is fixed anyway so that runs are reproducible while that holds by review.
//
// A component activated at time t ticks at the first edge of its domain at or after t that is later than
// the domain's last edge; a domain whose components are all idle has no edges, so a quiet network costs
// nothing while programs compute.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/calendar_queue.hpp"
#include "core/types.hpp"

namespace mppnet::core {

using DomainId = std::int32_t;
using ComponentId = std::int32_t;

class Component {
 public:
  virtual ~Component() = default;
  // Edge `cycle` of the component's domain (cycle * period = the scheduler's now()). Returns whether
  // the component has work left: false puts it to sleep until activate().
  virtual bool tick(Cycle cycle) = 0;
  // A timed event scheduled for this component, at the scheduler's now().
  virtual void on_event(std::uint32_t kind, std::uint64_t data) {
    static_cast<void>(kind);
    static_cast<void>(data);
  }
};

class Scheduler {
 public:
  static constexpr Picoseconds kForever = std::numeric_limits<Picoseconds>::max();

  // REQUIRES: period_ps > 0.
  DomainId add_domain(std::string name, Picoseconds period_ps);
  // Registers `c` (which must outlive the scheduler's runs) in domain d; it starts idle or active.
  ComponentId add(DomainId d, Component& c, bool active = true);

  // Wakes component c: it ticks at its domain's next edge (see above). Cheap when already active.
  void activate(ComponentId c);
  // Delivers on_event(kind, data) to `target` at time t. REQUIRES: t >= now().
  void schedule(Picoseconds t, ComponentId target, std::uint32_t kind = 0, std::uint64_t data = 0);

  Picoseconds now() const { return now_; }
  Picoseconds period_ps(DomainId d) const { return domains_[d].period_ps; }
  bool has_events() const { return !events_.empty(); }
  bool is_active(ComponentId c) const { return components_[c].active; }

  // Called after every edge of domain d, once all its components have ticked: where a driver reads
  // what the cycle delivered, keeps statistics and checks its watchdog.
  void after_edge(DomainId d, std::function<void(Cycle)> fn) {
    domains_[d].after_edge.push_back(std::move(fn));
  }

  enum class Stop {
    Idle,        // no component active and no event left: nothing will ever happen again
    TimeLimit,   // the next thing to happen lies beyond until_ps
    Predicate,   // `stop` returned true
    NoProgress,  // the watchdog fired: work is pending and nothing has moved for too long
  };
  // The no-progress watchdog, checked after every edge of `domain`: the run stops once quiet() (that
  // domain's cycles since anything last moved) exceeds `cycles` and stuck() confirms that work is
  // pending. What "moved" and "pending" mean is the driver's: flits on their way for an open-loop run;
  // flits, queued packets and no program left to act for node programs. stuck() is called only once the
  // quiet period has passed, so it may be expensive (a scan for blocked buffers).
  struct Watchdog {
    DomainId domain = -1;  // -1: no watchdog
    Cycle cycles = 0;
    std::function<Cycle()> quiet;
    std::function<bool()> stuck;
  };
  struct Limits {
    Picoseconds until_ps = kForever;  // nothing later than this happens in this run
    std::function<bool()> stop;       // checked after every event and every edge
    Watchdog watchdog;
  };
  // Runs events and edges in the order above until a limit is reached. May be called again to go on.
  Stop run(const Limits& limits);
  // The two common cases: run up to and including time t; run until `stop` holds (or nothing is left).
  Stop run_until_time(Picoseconds t) { return run({t, nullptr, {}}); }
  Stop run_until(std::function<bool()> stop) { return run({kForever, std::move(stop), {}}); }

 private:
  struct Domain {
    std::string name;
    Picoseconds period_ps = 0;
    Cycle next_cycle = 0;  // the next edge, valid while active_count > 0
    Cycle last_cycle = -1;
    std::vector<ComponentId> members;  // in id order
    int active_count = 0;
    std::vector<std::function<void(Cycle)>> after_edge;
  };
  struct Entry {
    Component* component = nullptr;
    DomainId domain = 0;
    bool active = false;
    Cycle wake_cycle = 0;  // the first edge it may tick at since it was last activated
  };
  struct Event {
    ComponentId target;
    std::uint32_t kind;
    std::uint64_t data;
  };

  // The domain with the earliest next edge among those with an active component, or -1.
  DomainId next_domain() const;
  void run_edge(Domain& d);

  std::vector<Domain> domains_;
  std::vector<Entry> components_;
  CalendarQueue<Event> events_;
  Picoseconds now_ = 0;
  // The next edge (domain and time), recomputed only when edges_changed_.
  bool edges_changed_ = true;
  DomainId next_ = -1;
  Picoseconds next_edge_ps_ = kForever;
  // The earliest event's time, kept here because the calendar queue finds it by walking its days.
  Picoseconds next_event_ps_ = kForever;
};

}  // namespace mppnet::core
