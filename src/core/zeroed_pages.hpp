// core/zeroed_pages.hpp: a large zero-filled byte area whose host memory grows with what is written.
//
// The simulated machines give every node its whole local memory (am.memory_bytes), but node programs
// touch a small part of it: on 16,384 nodes, a vector of zeros would cost the host the whole product
// even where a program writes a few kilobytes per node. Anonymous pages reserved without swap
// accounting read as zero and take host memory only once written. (A host in strict overcommit mode,
// vm.overcommit_memory = 2, accounts for them all the same and may refuse a large reservation.)
#pragma once

#include <cstddef>
#include <span>

namespace mppnet::core {

class ZeroedPages {
 public:
  ZeroedPages() = default;
  // Throws std::runtime_error naming the size when the host cannot reserve it.
  explicit ZeroedPages(std::size_t bytes);
  ~ZeroedPages();
  ZeroedPages(ZeroedPages&& other) noexcept;
  ZeroedPages& operator=(ZeroedPages&& other) noexcept;
  ZeroedPages(const ZeroedPages&) = delete;
  ZeroedPages& operator=(const ZeroedPages&) = delete;

  std::span<std::byte> bytes() { return {data_, size_}; }
  std::span<const std::byte> bytes() const { return {data_, size_}; }

 private:
  void release() noexcept;

  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace mppnet::core
