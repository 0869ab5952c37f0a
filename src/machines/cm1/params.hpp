// machines/cm1/params.hpp: what a CM-1/CM-2 routing instruction can be told, one struct per config section.
//
// Defaults are the paper's machine (Kahle, Kuszmaul and Hillis 1989; reference note 001 §5 "default setup"):
// a 12-cube of chips with 16 processors each, 7 heart rows, 32-bit data, VP ratio 1. Keys are declared once
// in config.cpp; docs/cm1.md lists the choices the paper leaves open.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/error.hpp"

namespace mppnet::machines::cm1 {

// How the bits of a message pass the heart (note §2.7). Rotating and InOrder differ only in timing;
// DropBits (paper L198-L226) also restricts routing to be oblivious (e-cube; docs/cm1.md).
enum class Pipeline { Rotating, InOrder, DropBits };

// Which waiting processor gets the lowest empty injector slot (note §6 A3).
enum class InjectorPriority { Fixed, Rotating };

// What the injector does with buffered messages (note §6 A3): keep their rows, or pack them into the low
// rows.
enum class BufferedRows { Keep, Repack };

// The ejector's single-eject mode (note §6 A5): off (all arrived messages, OR'ed per processor), one
// message per chip per petit cycle (the recommended reading), or one per processor.
enum class EjectLimit { None, OnePerChip, OnePerProcessor };

// Which virtual-processor banks the ejector serves in one petit cycle (note §6 A6): any bank (CM-2
// indirect addressing, and the ideal CM-1 of Fig. 12), or one bank, rotating round-robin (CM-1).
enum class VpEjection { AnyBank, OneBank };

// What a routing instruction does with its messages (docs/cm1.md "Operations"): send (write; the
// router delivers each message), read (a request phase plus a reply phase that fans the value back to
// every requester), or fetch-and-add done in software by sort, send and scan (paper L320).
enum class Operation { Send, Read, FetchAndAdd };

// Destination patterns on virtual-processor addresses (note §5 E4, E9).
enum class Pattern {
  RandomFunction,
  RandomPermutation,
  Complement,
  BitReversal,
  Transpose,
  Shift,
  HotSpot,
  AllToOne,
  File,  // pairs read from traffic.file
};

struct MachineParams {
  std::string model =
      "cm1";  // the simulation model this file configures (registry::model_of picks the loader by it)
  std::string name = "CM-1";  // shown in the result table
  int dims = 12;              // cube dimensions c; chips = 2^c
  int procs_per_chip = 16;    // P; PROC-ADDRESS has log2(P) bits
  double clock_hz = 4.0e6;    // router bit-time clock; not in the paper (docs/cm1.md)
};

struct RouterParams {
  int rows = 7;  // B: heart rows = injector slots = buffer slots
  Pipeline pipeline = Pipeline::Rotating;
  InjectorPriority injector_priority = InjectorPriority::Fixed;
  BufferedRows buffered_rows = BufferedRows::Keep;
  EjectLimit eject_limit = EjectLimit::None;
  VpEjection vp_ejection = VpEjection::AnyBank;
  bool combining = false;         // CM-2: fold messages for the same VP that meet at a chip (paper L320)
  int data_bits = 32;             // d, under software control
  int timeout_petit_cycles = 0;   // livelock timeout; 0 = 1000 + 800 * vp_ratio
  int max_splits = 0;             // on timeout, retry in two halves this many levels deep (paper L155)
  bool check_invariants = false;  // check note §5 E12 after every column and petit cycle (slow)
};

struct TrafficParams {
  Pattern pattern = Pattern::RandomFunction;
  int vp_ratio = 1;               // v: virtual processors (and messages) per physical processor
  double send_fraction = 1.0;     // probability that a VP sends (note §6 A20)
  int shift = 1;                  // Shift: destination processor = source + shift (mod processors)
  double hotspot_fraction = 0.1;  // HotSpot: probability of sending to the target VP
  std::int64_t target = 0;        // HotSpot and AllToOne: the target VP address
  std::string file;               // File: lines "source_vp destination_vp"
  Operation operation = Operation::Send;
};

struct RunParams {
  std::int64_t seed = 1;
};

struct Cm1Config {
  MachineParams machine;
  RouterParams cm1;
  TrafficParams traffic;
  RunParams run;

  std::map<std::string, core::SourceLocation> origin;  // where each key was set, for errors after loading
  std::string source_file;
};

}  // namespace mppnet::machines::cm1
