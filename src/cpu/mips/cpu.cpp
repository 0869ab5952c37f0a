// cpu/mips/cpu.cpp: fetch, interlocks, delay slots and commit around execute() (cpu/mips/execute.cpp).
#include "cpu/mips/cpu.hpp"

namespace mppnet::cpu::mips {
namespace {

// Regions up to 16 MiB get a decoded copy (a 20-byte Instruction a word): text segments and the stack.
constexpr std::uint32_t kMaxDecodedBytes = 16u << 20;

// User mode sees kuseg only: an address with the top bit set is an address error (MIPS-II, R3000 and
// R4000 alike), whatever is mapped there.
constexpr bool is_kernel_address(std::uint32_t address) {
  return (address & 0x80000000u) != 0;
}

}  // namespace

Cpu::Cpu(Memory& memory, Timing timing) : memory_(memory), timing_(timing) {}

void Cpu::reset(std::uint32_t entry_pc) {
  gpr_.fill(0);
  hi_ = lo_ = 0;
  pc_ = entry_pc;
  npc_ = entry_pc + 4;
  in_delay_slot_ = false;
  branch_pc_ = 0;
  cycles_ = instructions_ = 0;
  load_dest_ = 0;
  load_was_partial_ = false;
  hilo_ready_ = 0;
  fault_ = Fault{};
}

void Cpu::attach_coprocessor2(Coprocessor2* coprocessor) {
  cop2_ = coprocessor;
  boundary_calls_ = coprocessor != nullptr && coprocessor->wants_boundary_calls();
}

void Cpu::jump_to(std::uint32_t target) {
  redirected_ = true;
  redirect_pc_ = target;
  // Between instructions (an event) the jump takes effect at once; during one it does at commit.
  pc_ = target;
  npc_ = target + 4;
  in_delay_slot_ = false;
  // Between instructions the last load has completed during the jump (an event's dispatch takes cycles
  // of its own): the next instruction does not wait for it. During one, commit sets this again.
  load_dest_ = 0;
}

Exception Cpu::raise(Exception kind, std::uint32_t pc, std::uint32_t word) {
  fault_.kind = kind;
  fault_.pc = pc;
  fault_.instruction = word;
  fault_.in_delay_slot = in_delay_slot_;
  return kind;
}

Exception Cpu::load(std::uint32_t address, unsigned size, std::uint32_t& out) {
  fault_.bad_address = address;
  if (is_kernel_address(address)) return Exception::AddressErrorLoad;
  Access a = Access::Ok;
  if (size == 4) {
    a = memory_.load32(address, out);
  } else if (size == 2) {
    std::uint16_t h = 0;
    a = memory_.load16(address, h);
    out = h;
  } else {
    std::uint8_t b = 0;
    a = memory_.load8(address, b);
    out = b;
  }
  if (a == Access::Misaligned) return Exception::AddressErrorLoad;
  if (a == Access::Unmapped) return Exception::BusErrorLoad;
  return Exception::None;
}

Exception Cpu::store(std::uint32_t address, unsigned size, std::uint32_t value) {
  fault_.bad_address = address;
  if (is_kernel_address(address)) return Exception::AddressErrorStore;
  Access a = Access::Ok;
  if (size == 4) {
    a = memory_.store32(address, value);
  } else if (size == 2) {
    a = memory_.store16(address, static_cast<std::uint16_t>(value));
  } else {
    a = memory_.store8(address, static_cast<std::uint8_t>(value));
  }
  if (a == Access::Misaligned) return Exception::AddressErrorStore;
  if (a == Access::Unmapped) return Exception::BusErrorStore;
  return Exception::None;
}

void Cpu::wait_for_hilo() {
  const std::uint64_t issue = cycles_ + stall_;
  if (hilo_ready_ > issue) stall_ += hilo_ready_ - issue;
}

Exception Cpu::fetch(std::uint32_t pc, std::uint32_t& word) {
  const std::uint32_t offset = pc - code_.base;
  if (offset < code_.size_bytes && code_.size_bytes - offset >= 4 && (pc & 3) == 0 &&
      !is_kernel_address(pc)) {
    const std::uint8_t* p = code_.bytes + offset;
    word = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
    return Exception::None;
  }
  // Outside the cached region: the checked load says why not, or succeeds and the region is cached.
  if (const Exception e = load(pc, 4, word); e != Exception::None) return e;
  code_ = memory_.window(pc);
  // Every entry starts as the decoding of word 0 (a NOP), which is right for any word 0 it is met with.
  decoded_.assign(code_.size_bytes <= kMaxDecodedBytes ? code_.size_bytes / 4 : 0, decode(0));
  return Exception::None;
}

Instruction Cpu::decoded(std::uint32_t pc, std::uint32_t word) {
  const std::uint32_t index = (pc - code_.base) / 4;  // pc lies in code_ after a fetch
  if (index >= decoded_.size()) return decode(word);
  Instruction& entry = decoded_[index];
  if (entry.word != word) entry = decode(word);
  return entry;
}

Exception Cpu::step() {
  if (boundary_calls_) cop2_->at_boundary(*this);
  const std::uint32_t pc = pc_;
  std::uint32_t word = 0;
  if (const Exception e = fetch(pc, word); e != Exception::None) {
    return raise(e, pc, 0);
  }
  const Instruction in = decoded(pc, word);

  stall_ = 0;
  if (load_dest_ != 0 && (in.reads & (1u << load_dest_)) != 0) {
    // LWL and LWR merge into rt: the pair that loads one unaligned word back to back does not interlock
    // on the merge (MIPS-II, "LWL": no delay between them); a use of the register as base address does.
    const bool merge_only = load_was_partial_ && (in.op == Op::Lwl || in.op == Op::Lwr) &&
                            in.rt == load_dest_ && in.rs != load_dest_;
    if (!merge_only) stall_ = timing_.load_use_stall;
  }
  current_pc_ = pc;
  next_npc_ = npc_ + 4;
  delay_next_ = false;
  annul_ = false;
  redirected_ = false;

  if (const Exception e = execute(in); e != Exception::None) {
    if (e == Exception::CoprocessorUnusable) fault_.coprocessor = in.coprocessor;
    return raise(e, pc, word);
  }
  gpr_[0] = 0;

  cycles_ += 1 + stall_;
  ++instructions_;
  load_dest_ = is_load(in.op) ? in.rt : 0;
  load_was_partial_ = in.op == Op::Lwl || in.op == Op::Lwr;
  if (redirected_) {
    pc_ = redirect_pc_;
    npc_ = redirect_pc_ + 4;
    in_delay_slot_ = false;
  } else if (annul_) {
    // A branch-likely not taken: its delay slot is skipped.
    pc_ = npc_ + 4;
    npc_ = npc_ + 8;
    in_delay_slot_ = false;
  } else {
    pc_ = npc_;
    npc_ = next_npc_;
    in_delay_slot_ = delay_next_;
    branch_pc_ = pc;
  }
  return Exception::None;
}

Exception Cpu::run(std::uint64_t max_instructions) {
  for (std::uint64_t i = 0; i < max_instructions; ++i) {
    if (const Exception e = step(); e != Exception::None) return e;
  }
  return Exception::None;
}

void Cpu::skip_faulting_instruction() {
  cycles_ += 1;
  ++instructions_;
  load_dest_ = 0;
  pc_ = npc_;
  npc_ = npc_ + 4;
  in_delay_slot_ = false;
}

}  // namespace mppnet::cpu::mips
