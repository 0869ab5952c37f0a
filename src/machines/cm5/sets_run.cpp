// machines/cm5/sets_run.cpp: builds each requested message set and times it on a fresh network.
#include "machines/cm5/sets_run.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "machines/cm5/completion.hpp"
#include "machines/cm5/congestion.hpp"
#include "machines/cm5/message_format.hpp"
#include "machines/cm5/message_sets.hpp"

namespace mppnet::machines::cm5 {

namespace {

[[noreturn]] void bad_sets_option(const char* option, const std::string& reason) {
  throw core::ConfigError({}, option, reason);
}

bool is_all_to_all(const std::string& name) {
  return name == "all_to_all" || name == "all_to_all_xor";
}

// REQUIRES: is_all_to_all(name).
AllToAllOrder order_of(const std::string& name) {
  return name == "all_to_all" ? AllToAllOrder::Shift : AllToAllOrder::Xor;
}

// The set, or an empty one when the size does not allow it.
MessageSet build(const std::string& name, const SetsOptions& o) {
  const int n = o.nodes;
  if (is_all_to_all(name)) {
    const AllToAllOrder order = order_of(name);
    const int count = o.rounds > 0 ? o.rounds : all_to_all_round_count(n, order);
    return all_to_all_rounds(n, order, o.first_round, count);
  }
  MessageSet one;
  if (name == "random") one = random_permutation(n, o.seed);
  if (name == "transpose") one = transpose(n);
  if (name == "bit_reversal") one = bit_reversal(n);
  if (name == "perfect_shuffle") one = perfect_shuffle(n);
  if (name == "across_root") one = across_root(n);
  return repeat(one, o.copies);
}

std::int64_t busiest_link(const DataNetwork& net) {
  std::int64_t most = 0;
  for (ChipId c = 0; c < net.shape().chips(); ++c) {
    for (int p = 0; p < kChipPorts; ++p) most = std::max(most, net.port_out(c, p));
  }
  return most;
}

}  // namespace

std::int64_t all_to_all_messages(const std::string& name, const SetsOptions& o) {
  const std::int64_t last =
      o.rounds > 0 ? std::int64_t{o.first_round} + o.rounds - 1 : std::numeric_limits<int>::max();
  return core::all_to_all_pairs(o.nodes, order_of(name), o.first_round, last);
}

const std::vector<std::string>& message_set_names() {
  static const std::vector<std::string> names = {"random",          "transpose",   "bit_reversal",
                                                 "perfect_shuffle", "across_root", "all_to_all",
                                                 "all_to_all_xor"};
  return names;
}

SetsResult run_message_sets(const SetsOptions& o, const std::function<void(std::int64_t messages)>& planned) {
  if (o.nodes < 32 || o.nodes > 16384 || o.nodes % 32 != 0)
    bad_sets_option("--nodes",
                    fmt::format("a CM-5 has a multiple of 32 nodes from 32 to 16384 (got {})", o.nodes));
  if (o.copies < 1 || o.copies > 1024)
    bad_sets_option("--copies", fmt::format("1 to 1024 copies (got {})", o.copies));
  if (o.words < 1 || o.words > kMaxWords)
    bad_sets_option("--words", fmt::format("a message has 1 to {} words (got {})", kMaxWords, o.words));
  if (o.rounds < 0)
    bad_sets_option("--rounds", fmt::format("a number of rounds is at least 0 (got {})", o.rounds));
  const int most_rounds = all_to_all_round_count(o.nodes, AllToAllOrder::Xor);
  if (o.first_round < 1 || o.first_round > most_rounds)
    bad_sets_option("--first-round", fmt::format("rounds are numbered 1 to {} on {} nodes (got {})",
                                                 most_rounds, o.nodes, o.first_round));
  const int longest = message_nibbles(kMaxWords, FatTreeShape(o.nodes, DataNetworkParams{}.parents).height());
  if (o.buffer_nibbles < longest || o.buffer_nibbles > 4096)
    bad_sets_option("--buffer-nibbles",
                    fmt::format("a chip buffer holds a longest message: {} to 4096 nibbles on {} "
                                "nodes (got {})",
                                longest, o.nodes, o.buffer_nibbles));
  const std::vector<std::string>& names = o.sets.empty() ? message_set_names() : o.sets;
  for (const std::string& name : names) {
    if (std::find(message_set_names().begin(), message_set_names().end(), name) == message_set_names().end())
      bad_sets_option("--sets", fmt::format("unknown message set '{}' (sets: {})", name,
                                            fmt::join(message_set_names(), ", ")));
  }
  // The host holds every message of a set at once (about 80 bytes each): a whole all-to-all of the
  // largest machines would not fit. Asked for by name, such a set is an error; among every set, left out.
  SetsResult result;
  std::vector<std::string> run;
  for (const std::string& name : names) {
    const std::int64_t messages = is_all_to_all(name) ? all_to_all_messages(name, o) : 0;
    if (messages <= kMostSetMessages) {
      run.push_back(name);
    } else if (o.sets.empty()) {
      result.left_out.push_back(
          fmt::format("{}: {} messages, more than the {} one run holds (take fewer with "
                      "--rounds)",
                      name, messages, kMostSetMessages));
    } else {
      bad_sets_option("--rounds",
                      fmt::format("{} on {} nodes is {} messages, more than the {} one run holds: take fewer "
                                  "with --rounds, or leave it out with --sets",
                                  name, o.nodes, messages, kMostSetMessages));
    }
  }
  if (planned) {
    std::int64_t messages = 0;
    for (const std::string& name : run)
      messages += is_all_to_all(name) ? all_to_all_messages(name, o) : std::int64_t{o.nodes} * o.copies;
    planned(messages);
  }
  for (const std::string& name : run) {
    const MessageSet set = build(name, o);
    if (set.empty()) {
      if (o.sets.empty()) continue;  // every set was asked for: those the size does not allow are left out
      if (is_all_to_all(name)) {
        bad_sets_option("--first-round",
                        fmt::format("{} has rounds 1 to {} on {} nodes (got {})", name,
                                    all_to_all_round_count(o.nodes, order_of(name)), o.nodes, o.first_round));
      }
      bad_sets_option("--sets", fmt::format("{} needs a number of nodes that is a power of {} (got {})", name,
                                            name == "transpose" ? 4 : 2, o.nodes));
    }
    DataNetworkParams p;
    p.nodes = o.nodes;
    p.seed = o.seed;
    p.buffer_nibbles = o.buffer_nibbles;
    p.up_choice = o.deterministic ? UpChoice::Deterministic : UpChoice::RandomFree;
    DataNetwork net(p);
    SetRow row{.set = name, .messages = static_cast<std::int64_t>(set.size())};
    row.completion = completion_cycles(net, set, o.words);
    row.bound = load_bound_cycles(net.shape(), set, o.words);
    row.busiest_link = busiest_link(net);
    result.rows.push_back(row);
  }
  return result;
}

}  // namespace mppnet::machines::cm5
