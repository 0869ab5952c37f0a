// core/scheduler_test.cpp: the order of edges and events, sleeping and waking, and the stop conditions.
#include "core/scheduler.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace mppnet::core {
namespace {

// Logs every tick and event as "name@time"; ticks `ticks_left` times, then sleeps.
class Recorder : public Component {
 public:
  Recorder(std::string name, Scheduler& s, std::vector<std::string>& log, int ticks_left = 1 << 30)
      : name_(std::move(name)), s_(s), log_(log), ticks_left_(ticks_left) {}
  bool tick(Cycle cycle) override {
    log_.push_back(name_ + "@" + std::to_string(s_.now()) + "#" + std::to_string(cycle));
    if (on_tick) on_tick();
    return --ticks_left_ > 0;
  }
  void on_event(std::uint32_t kind, std::uint64_t data) override {
    log_.push_back(name_ + ".e" + std::to_string(kind) + "/" + std::to_string(data) + "@" +
                   std::to_string(s_.now()));
    if (on_ev) on_ev();
  }
  std::function<void()> on_tick, on_ev;

 private:
  std::string name_;
  Scheduler& s_;
  std::vector<std::string>& log_;
  int ticks_left_;
};

TEST(Scheduler, TwoClocksInterleaveByTimeAndTiesGoToTheLowerDomain) {
  // 40 MHz and 32 MHz (the CM-5's network and processors): edges meet every 125,000 ps.
  Scheduler s;
  std::vector<std::string> log;
  const DomainId net = s.add_domain("network", 25'000);
  const DomainId cpu = s.add_domain("processors", 31'250);
  Recorder n("n", s, log), p("p", s, log);
  s.add(cpu, p);
  s.add(net, n);
  EXPECT_EQ(s.run_until_time(125'000), Scheduler::Stop::TimeLimit);
  const std::vector<std::string> want = {"n@0#0",      "p@0#0",      "n@25000#1", "p@31250#1",
                                         "n@50000#2",  "p@62500#2",  "n@75000#3", "p@93750#3",
                                         "n@100000#4", "n@125000#5", "p@125000#4"};
  EXPECT_EQ(log, want);
  EXPECT_EQ(s.now(), 125'000);
}

TEST(Scheduler, EventsComeBeforeTheEdgeOfTheirTimeAndInTheOrderScheduled) {
  Scheduler s;
  std::vector<std::string> log;
  const DomainId d = s.add_domain("clock", 10);
  Recorder c("c", s, log, 3), e("x", s, log);
  const ComponentId ci = s.add(d, c);
  const ComponentId ei = s.add(d, e, false);
  s.schedule(10, ei, 2, 7);
  s.schedule(10, ei, 1, 8);  // same time, scheduled later: comes later
  s.schedule(5, ei, 0, 9);
  EXPECT_EQ(s.run_until([] { return false; }), Scheduler::Stop::Idle);
  const std::vector<std::string> want = {"c@0#0", "x.e0/9@5", "x.e2/7@10", "x.e1/8@10", "c@10#1", "c@20#2"};
  EXPECT_EQ(log, want);
  EXPECT_FALSE(s.is_active(ci));
}

TEST(Scheduler, ASleepingComponentCostsNothingAndWakesAtTheFirstEdgeAtOrAfterItsWakeUp) {
  Scheduler s;
  std::vector<std::string> log;
  const DomainId d = s.add_domain("clock", 100);
  Recorder c("c", s, log, 1), waker("w", s, log);
  const ComponentId ci = s.add(d, c);
  const ComponentId wi = s.add(d, waker, false);
  waker.on_ev = [&] { s.activate(ci); };
  s.schedule(1'000'000, wi);  // ten thousand cycles of nothing in between
  s.schedule(1'000'050, wi);  // mid-cycle: the next edge is at 1,000,100
  EXPECT_EQ(s.run_until([] { return false; }), Scheduler::Stop::Idle);
  const std::vector<std::string> want = {"c@0#0", "w.e0/0@1000000", "c@1000000#10000", "w.e0/0@1000050",
                                         "c@1000100#10001"};
  EXPECT_EQ(log, want);
}

TEST(Scheduler, AComponentWokenDuringAnEdgeTicksAtTheNextOne) {
  Scheduler s;
  std::vector<std::string> log;
  const DomainId d = s.add_domain("clock", 10);
  Recorder a("a", s, log, 1), b("b", s, log, 1);
  s.add(d, a);
  const ComponentId bi = s.add(d, b, false);
  a.on_tick = [&] { s.activate(bi); };  // b comes after a in the same edge, yet must not see this one
  s.run_until([] { return false; });
  const std::vector<std::string> want = {"a@0#0", "b@10#1"};
  EXPECT_EQ(log, want);
}

TEST(Scheduler, StopsOnThePredicateAfterTheStepThatMadeItTrue) {
  Scheduler s;
  std::vector<std::string> log;
  const DomainId d = s.add_domain("clock", 10);
  Recorder c("c", s, log);
  s.add(d, c);
  EXPECT_EQ(s.run_until([&] { return log.size() == 3; }), Scheduler::Stop::Predicate);
  EXPECT_EQ(s.now(), 20);
  // Going on resumes at the next edge.
  EXPECT_EQ(s.run_until_time(40), Scheduler::Stop::TimeLimit);
  EXPECT_EQ(log.back(), "c@40#4");
  EXPECT_EQ(log.size(), 5u);
}

TEST(Scheduler, AfterEdgeHooksSeeEveryEdgeOfTheirDomainOnly) {
  Scheduler s;
  std::vector<std::string> log;
  const DomainId fast = s.add_domain("fast", 10);
  const DomainId slow = s.add_domain("slow", 30);
  Recorder f("f", s, log, 4), w("w", s, log, 2);
  s.add(fast, f);
  s.add(slow, w);
  std::vector<Cycle> seen;
  s.after_edge(slow, [&](Cycle c) { seen.push_back(c); });
  s.run_until([] { return false; });
  EXPECT_EQ(seen, (std::vector<Cycle>{0, 1}));
}

TEST(Scheduler, TheWatchdogStopsAfterItsQuietCyclesOnlyWhenStuckAndOnlyOnItsDomain) {
  // A network-like component moves something at its edges 0..3 and then nothing; a second domain runs
  // beside it. Quiet at cycle c is c - 3, so with 5 quiet cycles the watchdog fires at edge 9 (quiet 6)
  // and not before, and never on the other domain's edges.
  Scheduler s;
  std::vector<std::string> log;
  const DomainId net = s.add_domain("network", 10);
  const DomainId cpu = s.add_domain("processors", 7);
  Recorder n("n", s, log), p("p", s, log);
  Cycle last_move = 0, cycle = 0;
  n.on_tick = [&] {
    cycle = s.now() / 10;
    if (cycle <= 3) last_move = cycle;
  };
  s.add(net, n);
  s.add(cpu, p);
  int stuck_calls = 0;
  Scheduler::Watchdog w{net, 5, [&] { return cycle - last_move; },
                        [&] {
                          ++stuck_calls;
                          return true;
                        }};
  EXPECT_EQ(s.run({Scheduler::kForever, nullptr, w}), Scheduler::Stop::NoProgress);
  EXPECT_EQ(s.now(), 90);
  EXPECT_EQ(stuck_calls, 1);
  // Not stuck (say, a program will still act): the run goes on to its time limit.
  w.stuck = [] { return false; };
  EXPECT_EQ(s.run({200, nullptr, w}), Scheduler::Stop::TimeLimit);
  EXPECT_EQ(s.now(), 200);
}

}  // namespace
}  // namespace mppnet::core
