// core/zeroed_pages.cpp: anonymous private pages, reserved without swap accounting (MAP_NORESERVE).
#include "core/zeroed_pages.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace mppnet::core {

ZeroedPages::ZeroedPages(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    size_ = 0;
    throw std::runtime_error("the host cannot reserve " + std::to_string(bytes) +
                             " bytes of address space for the nodes' memory: " + std::strerror(errno));
  }
  data_ = static_cast<std::byte*>(p);
}

ZeroedPages::~ZeroedPages() {
  release();
}

ZeroedPages::ZeroedPages(ZeroedPages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

ZeroedPages& ZeroedPages::operator=(ZeroedPages&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void ZeroedPages::release() noexcept {
  if (data_ != nullptr) munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace mppnet::core
