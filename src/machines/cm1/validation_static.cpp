// machines/cm1/validation_static.cpp: cases E1 (constants and pipeline figures), E2 (the clocked heart
// site: delay, address rotation, parity) and E11 (a lone message).
//
// The E1 cases check the transcription of the paper's formulas (closed form); the E2 cases run the
// bit-level model of one heart site (timing.hpp) against the paper's description of the actual solution
// (sec. 3.4.5, L228-L252).
#include <cstdint>
#include <utility>

#include "machines/cm1/patterns.hpp"
#include "machines/cm1/router.hpp"
#include "machines/cm1/timing.hpp"
#include "machines/cm1/validation_parts.hpp"

namespace mppnet::machines::cm1::detail {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

constexpr int kC = 12, kB = 7, kL = 50;
constexpr const char* kExactArithmetic = "exact: integer arithmetic of a formula the paper prints";

ValidationCase closed_form(std::string id, std::string where, std::string quantity, double expected,
                           std::function<double()> measure) {
  return core::exact_case(std::move(id), paper(std::move(where)),
                          "closed form, c = 12, b = 7, l = 50 (d = 32, no VP bits)", std::move(quantity),
                          expected, std::move(measure), Evidence::ClosedForm, kExactArithmetic);
}

// Strips the two idle bit-times a clocked site drives before the stream (clock_heart_site).
BitStream through_site(const BitStream& in, bool crossed) {
  const auto out = clock_heart_site(in, kC, crossed);
  return {out.begin() + 2, out.end()};
}

// Bit-level: MSGP delay through `sites` clocked heart sites.
double clocked_msgp_delay(int sites) {
  const FieldWidths w{12, 4, 0, 32};
  auto stream = encode({0xabc, 3, 0, 0x55aa55aa}, w);
  int delay = 0;
  for (int i = 0; i < sites; ++i) {
    const auto out = clock_heart_site(stream, kC, false);
    int first = 0;
    while (out[static_cast<std::size_t>(first)] == 0) ++first;
    delay += first;
    stream.assign(out.begin() + first, out.end());
  }
  return delay;
}

// Address bits out of place after each of the 12 columns, plus 1 if the address does not come out of the
// heart in its original order. The message crosses every dimension it wants and is desperation-routed over
// dimension 2 (its bit 2 is 0), so held bits flip both ways.
double rotation_mismatches() {
  const FieldWidths w{12, 4, 0, 32};
  const std::uint32_t rel = 0b101100111010;
  auto stream = encode({rel, 3, 0, 0x12345678}, w);
  std::uint32_t now = rel;  // the relative address as crossings change it
  int bad = 0;
  for (int i = 0; i < kC; ++i) {
    const bool crossed = ((now >> i) & 1) != 0 || i == 2;
    stream = through_site(stream, crossed);
    if (crossed) now ^= 1u << i;
    // After column i the address reads a_{i+1} .. a_{c-1}, a_0 .. a_i (L232, numbered from 0).
    for (int k = 0; k < kC; ++k)
      bad += stream[static_cast<std::size_t>(1 + k)] != ((now >> ((i + 1 + k) % kC)) & 1);
  }
  bool parity_ok = false;
  bad += decode(stream, w, &parity_ok).rel != now;  // L246: "restored to its original form"
  return bad;
}

// Parity failures: a stream whose even parity (every bit after MSGP) breaks after a column, a message
// that does not decode to its fields with valid parity after the heart, and a single-bit error that the
// decoded parity misses.
double parity_failures() {
  const FieldWidths w{12, 4, 2, 32};
  const MessageFields messages[] = {{0xfff, 15, 3, 0xffffffff}, {0x000, 0, 0, 0}, {0xa5c, 9, 2, 0xdeadbeef}};
  int bad = 0;
  for (const auto& m : messages) {
    auto stream = encode(m, w);
    std::uint32_t now = m.rel;
    for (int i = 0; i < kC; ++i) {
      const bool crossed = ((now >> i) & 1) != 0 || i % 5 == 0;  // wanted crossings and desperation hops
      stream = through_site(stream, crossed);
      if (crossed) now ^= 1u << i;
      std::uint8_t sum = 0;  // rotation only reorders the address, so the parity of the bits holds
      for (std::size_t k = 1; k < stream.size(); ++k) sum ^= stream[k];
      bad += sum != 0;
    }
    bool ok = false;
    const auto f = decode(stream, w, &ok);
    bad += !ok || f.rel != now || f.proc != m.proc || f.vp != m.vp || f.data != m.data;
    for (std::size_t k = 1; k < stream.size(); ++k) {  // L99: "detect all single bit errors"
      auto hit = stream;
      hit[k] ^= 1;
      decode(hit, w, &ok);
      bad += ok;
    }
  }
  return bad;
}

// One message from chip 0 to chip 4095 on an idle 64K machine: petit cycles, or bit-times to its last bit.
double lone_message(bool bit_times) {
  MachineParams m;
  Router r(m, RouterParams{}, 1);
  std::vector<std::uint32_t> dst(65536, kNoMessage);
  dst[0] = 65535;  // all 12 dimensions
  const auto st = r.route(dst);
  return bit_times ? static_cast<double>(delivery_bit_times(Pipeline::Rotating, st.petit_cycles, kL, kC))
                   : static_cast<double>(st.petit_cycles);
}

}  // namespace

void add_static_cases(std::vector<ValidationCase>& cases) {
  // --- E1: constants and pipeline figures (sec. 3.1-3.4.5) ---
  cases.push_back(closed_form("cm1.e1.message_length", "sec. 3.1, L78-L99, L185", "message length l, bits",
                              50, [] { return message_bits(12, 16, 1, 32); }));
  cases.push_back(closed_form("cm1.e1.in_order_storage", "sec. 3.4.3, L181-L183",
                              "in-order heart storage, bits", 630,
                              [] { return static_cast<double>(in_order_storage_bits(kB, kC)); }));
  cases.push_back(closed_form("cm1.e1.in_order_heart_delay", "sec. 3.4.3, L187-L189",
                              "in-order heart delay, bit-times", 140,
                              [] { return in_order_heart_delay(kL, kC); }));
  cases.push_back(closed_form("cm1.e1.in_order_petit_cycle", "sec. 3.4.3, L189",
                              "in-order petit cycle, bit-times", 90,
                              [] { return in_order_petit_period(kL, kC); }));
  cases.push_back(closed_form("cm1.e1.two_batch_petit_cycle", "sec. 3.4.3, L191-L194",
                              "in-order, two interleaved batches: petit cycle, bit-times", 100,
                              [] { return in_order_two_batch_period(kL, kC); }));
  cases.push_back(closed_form("cm1.e1.drop_bits_storage", "sec. 3.4.4, L218", "drop-bits heart storage, bits",
                              168, [] { return static_cast<double>(drop_bits_storage_bits(kB, kC)); }));
  cases.push_back(closed_form("cm1.e1.drop_bits_heart_delay", "sec. 3.4.4, L220-L224",
                              "drop-bits heart delay, bit-times", 62,
                              [] { return drop_bits_heart_delay(kL, kC); }));
  cases.push_back(closed_form("cm1.e1.rotating_storage", "sec. 3.4.5, L236", "rotating heart storage, bits",
                              168, [] { return static_cast<double>(rotating_storage_bits(kB, kC)); }));
  cases.push_back(closed_form("cm1.e1.rotating_heart_delay", "sec. 3.4.5, L240-L244",
                              "rotating heart delay, bit-times", 74,
                              [] { return rotating_heart_delay(kL, kC); }));
  cases.push_back(closed_form(
      "cm1.e1.delivery_time_p12", "sec. 3.4.5, L248-L250", "delivery cycle, p = 12, bit-times", 624,
      [] { return static_cast<double>(delivery_bit_times(Pipeline::Rotating, 12, kL, kC)); }));
  // The other branch of L248: d = 5 gives l = 23 < 2c, so p = 12 takes l + 2cp = 23 + 288 bit-times.
  cases.push_back(closed_form("cm1.e1.short_message_delivery_p12", "sec. 3.4.5, L248 (the 2c > l branch)",
                              "delivery cycle, p = 12, d = 5 (l = 23), bit-times", 311, [] {
                                const int l = message_bits(12, 16, 1, 5);
                                return static_cast<double>(delivery_bit_times(Pipeline::Rotating, 12, l, kC));
                              }));
  cases.back().setup = "closed form, c = 12, d = 5, no VP bits: l = 23";
  // L250: "2c <= l is true whenever v + d >= 6": the fewest data bits that keep every wire busy.
  cases.push_back(closed_form("cm1.e1.pipeline_full_min_data_bits", "sec. 3.4.5, L250",
                              "fewest v + d bits with petit cycles l apart (2c <= l)", 6, [] {
                                for (int d = 0; d <= 32; ++d) {
                                  const int l = message_bits(12, 16, 1, d);
                                  if (rotating_petit_period(l, kC) == l) return static_cast<double>(d);
                                }
                                return -1.0;
                              }));
  cases.back().setup = "closed form, c = 12, no VP bits, d = 0..32";
  cases.push_back(closed_form("cm1.e1.injector_sites", "sec. 3.2, L109", "injector switch sites", 112,
                              [] { return injector_sites(kB, 16); }));
  cases.push_back(closed_form("cm1.e1.heart_sites", "sec. 3.4, L119", "heart sites (12 columns x 7)", 84,
                              [] { return heart_sites(kB, kC); }));

  // --- E2: the clocked heart site against the paper's actual solution (sec. 3.4.5) ---
  constexpr const char* kBitLevel = "exact: whole bit-times and bit positions";
  cases.push_back({.id = "cm1.e2.column_delay",
                   .source = paper("sec. 3.4.5, L238"),
                   .setup = "one clocked heart site, 50-bit stream",
                   .quantity = "MSGP delay through one column, bit-times",
                   .expected = 2,
                   .tolerance = Tolerance::exact(),
                   .measure = [] { return clocked_msgp_delay(1); },
                   .evidence = Evidence::Behaviour,
                   .tolerance_origin = kBitLevel});
  cases.push_back({.id = "cm1.e2.heart_latency_bit_level",
                   .source = paper("sec. 3.4.5, L240-L244"),
                   .setup = "12 clocked heart sites, 50-bit stream",
                   .quantity = "MSGP delay + l through the heart, bit-times",
                   .expected = 74,
                   .tolerance = Tolerance::exact(),
                   .measure = [] { return clocked_msgp_delay(12) + kL; },
                   .evidence = Evidence::Behaviour,
                   .tolerance_origin = kBitLevel});
  cases.push_back(
      {.id = "cm1.e2.address_rotation",
       .source = paper("sec. 3.4.5, L230-L232 (rotation, read from column 0) and L246 (restored)"),
       .setup = "12 clocked heart sites, one 50-bit message crossing 7 wanted dimensions and "
                "desperation-routed once",
       .quantity = "address bits out of the rotated order after a column, + 1 if not restored",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure = rotation_mismatches,
       .evidence = Evidence::Behaviour,
       .tolerance_origin = kBitLevel});
  cases.push_back(
      {.id = "cm1.e2.parity_inversion",
       .source = paper("sec. 3.1, L99 (parity inverted on every crossing; detects single-bit errors)"),
       .setup = "12 clocked heart sites, 3 messages with 2 VP bits, wanted and desperation crossings; "
                "every single-bit error of the output",
       .quantity = "parity breaks after a column + bad decodes + single-bit errors missed",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure = parity_failures,
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "exact: a count"});

  // --- E11: light load (sec. 3.4.1 and 3.4.5) ---
  cases.push_back(
      {.id = "cm1.e11.lone_message_petit_cycles",
       .source = paper("sec. 3.4.1, L133-L147: a message that wins every column crosses them all in "
                       "one pass (derivation in docs/cm1.md)"),
       .setup = "64K, one message from chip 0 to chip 4095",
       .quantity = "petit cycles",
       .expected = 1,
       .tolerance = Tolerance::exact(),
       .measure = [] { return lone_message(false); },
       .evidence = Evidence::Independent,
       .tolerance_origin = "exact: a count"});
  cases.push_back({.id = "cm1.e11.lone_message_bit_times",
                   .source = paper("sec. 3.4.5, L240-L248"),
                   .setup = "64K, one message from chip 0 to chip 4095, l = 50",
                   .quantity = "bit-times to the last bit out (the delivery formula at the simulated p)",
                   .expected = 74,
                   .tolerance = Tolerance::exact(),
                   .measure = [] { return lone_message(true); },
                   .evidence = Evidence::ClosedForm,
                   .tolerance_origin = kExactArithmetic});
}

}  // namespace mppnet::machines::cm1::detail
