// cpu/mips/exception.cpp: names and one-line descriptions of exceptions.
#include "cpu/mips/exception.hpp"

#include <fmt/format.h>

namespace mppnet::cpu::mips {

const char* exception_name(Exception kind) {
  switch (kind) {
    case Exception::None:
      return "none";
    case Exception::AddressErrorLoad:
      return "address error on load or fetch";
    case Exception::AddressErrorStore:
      return "address error on store";
    case Exception::BusErrorLoad:
      return "bus error on load or fetch (unmapped address)";
    case Exception::BusErrorStore:
      return "bus error on store (unmapped address)";
    case Exception::ReservedInstruction:
      return "reserved instruction";
    case Exception::CoprocessorUnusable:
      return "coprocessor unusable";
    case Exception::Overflow:
      return "integer overflow";
    case Exception::Syscall:
      return "system call";
    case Exception::Breakpoint:
      return "breakpoint";
    case Exception::Trap:
      return "trap";
    case Exception::CoprocessorException:
      return "coprocessor exception";
  }
  return "unknown exception";
}

std::string describe(const Fault& fault) {
  std::string s = fmt::format("{} at pc 0x{:08x}", exception_name(fault.kind), fault.pc);
  switch (fault.kind) {
    case Exception::AddressErrorLoad:
    case Exception::AddressErrorStore:
    case Exception::BusErrorLoad:
    case Exception::BusErrorStore:
      s += fmt::format(": address 0x{:08x}", fault.bad_address);
      break;
    case Exception::CoprocessorUnusable:
      s += fmt::format(": coprocessor {}", fault.coprocessor);
      break;
    default:
      break;
  }
  if (fault.kind != Exception::None) s += fmt::format(" (instruction 0x{:08x})", fault.instruction);
  if (fault.in_delay_slot) s += " in a branch delay slot";
  return s;
}

}  // namespace mppnet::cpu::mips
