// net/vc_alloc.hpp: the general router's VC allocators, as functions of one router's request matrix.
//
// A waiting input VC is a row: its candidate ports and, on each, the VCs it may take (free, in its
// route's VC range, and under cut-through with room for the whole packet). The network builds the rows
// once per router evaluation (net/vc_allocator.cpp), calls the allocator chosen at construction through
// one function pointer, and applies the grants. An allocator reads nothing but its arguments, so a test
// can hand it a matrix and check every grant (vc_alloc_*_test.cpp).
//
// router.vc_choice names the one VC a row asks for on each candidate port (pick_vc): the lowest usable,
// the first usable at or after the port's rotating pointer, or one drawn at random. router.vc_allocator
// decides who gets what was asked for:
//   input_first   each row asks for one VC (one port, by the routing's port selection); each output VC
//                 goes to the asker nearest after the round-robin pointer (vc_alloc_input_first.cpp);
//   output_first  each row asks for every usable VC; each output VC goes to its nearest asker; each row
//                 accepts one of its grants (vc_alloc_output_first.cpp);
//   wavefront     each row asks for one VC on every candidate port, and a wavefront arbiter (Tamir and
//                 Chi 1993) grants a maximal matching (vc_alloc_wavefront.cpp).
// A multicast row (net/multicast.cpp) asks for one VC on every branch and wins all of them or none.
#pragma once

#include <cstdint>
#include <span>

#include "core/rng.hpp"
#include "net/router_params.hpp"
#include "topo/routing.hpp"

namespace mppnet::net::vc_alloc {

// One candidate port of a row.
struct Candidate {
  std::uint64_t usable = 0;  // bit v: VC v of this port may be taken
  std::int32_t score = 0;    // PortSelection::MostCredits: the port's credits over the route's VCs; else 0
  std::uint8_t port = 0;     // local port
  std::int8_t vc = -1;       // written by the allocator: the VC asked for here (a multicast's branch VC)
};

// One waiting input VC.
struct Request {
  std::int16_t input = 0;  // local input VC
  std::int32_t first = 0;  // its candidates are candidates[first, first + count), ports increasing
  std::uint8_t count = 0;
  bool multicast = false;  // wants every candidate at once, or none
};

struct Grant {
  std::int16_t input;     // local input VC
  std::int16_t ovc;       // local output VC (port * vcs + vc); -1 for a multicast: its candidates' `vc`
  std::uint16_t request;  // index of its row
};

// What an allocator reads and moves for one router.
struct RouterView {
  int vcs;  // VCs per port
  int n;    // local input VCs = local output VCs = ports * vcs
  VcChoice choice;
  std::uint16_t* input_rr;  // the round-robin pointer over input VCs (the priority diagonal: wavefront)
  std::uint8_t* vc_rr;      // per local port, the VC to favour next; used only by VcChoice::RoundRobin
  core::RandomStream* rng;  // the router's stream
  // Per local output VC, the input VC to favour next (VcArbiter::PerOutputVc); nullptr: input_rr decides.
  std::uint16_t* output_rr = nullptr;
};

// Preallocated by the network: claim, dist and listed hold n entries, cells n * kMaxRouteCandidates.
// REQUIRES on entry, kept on return: claim[*] == -1.
struct Scratch {
  std::int32_t* claim;   // per local output VC: the row's input holding it, -1 none
  std::int32_t* dist;    // per local output VC: that holder's priority
  std::int32_t* listed;  // output VCs claimed this cycle
  std::uint64_t* cells;  // the wavefront's requests in priority order
};

// Every allocator has this signature. REQUIRES: requests in increasing input order, candidates of a
// row in increasing port order, grants with room for requests.size(). Returns the grants written; moves
// *input_rr and (RoundRobin) vc_rr past what it granted.
using Allocate = int (*)(const RouterView& r, std::span<const Request> requests,
                         std::span<Candidate> candidates, const Scratch& s, Grant* grants);
int input_first(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
                const Scratch& s, Grant* grants);
int output_first(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
                 const Scratch& s, Grant* grants);
int wavefront(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
              const Scratch& s, Grant* grants);

// REQUIRES: kind != Auto (RouterParams::vc_allocator_kind() resolves it).
Allocate allocator_for(VcAllocatorKind kind);

// Shared steps (vc_alloc.cpp).
// The VC the row asks for on candidate c under r.choice, or -1 when c has none; Random draws once when
// two or more are usable.
int pick_vc(const RouterView& r, const Candidate& c);
// Of `found` candidates options[0..found), the index into options to ask for: the highest score, ties
// (all of them when scores are 0) by one draw; no draw when one is left. The bitmask router's
// Network::choose_candidate makes the same choice with the same draws.
int choose(const RouterView& r, const Candidate* candidates, const int* options, int found);
// A multicast row: sets every candidate's vc; false (and candidates[first].vc = -1) if a branch has none.
bool pick_branches(const RouterView& r, const Request& q, std::span<Candidate> candidates);
// The separable allocators' last step: multicasts that won every branch are granted, their claims
// dropped; then every output VC still claimed is granted in listed order; claims are reset and the
// pointers moved (the input pointer past the granted input nearest after it).
int finish_separable(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
                     const Scratch& s, int listed, Grant* grants);
// VcChoice::RoundRobin: each port's pointer moves past the VC granted there that was furthest from it,
// so that every VC granted this cycle ranks below the ones not granted. Uses s.dist.
void move_vc_pointers(const RouterView& r, std::span<const Request> requests,
                      std::span<const Candidate> candidates, const Scratch& s, const Grant* grants,
                      int count);

}  // namespace mppnet::net::vc_alloc
