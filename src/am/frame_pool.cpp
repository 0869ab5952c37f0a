// am/frame_pool.cpp: the size-class free lists.
#include "am/frame_pool.hpp"

#include <new>

namespace mppnet::am {

FramePool::~FramePool() {
  for (void* b : blocks_) ::operator delete(b);
}

void* FramePool::allocate(std::size_t bytes) {
  const std::size_t cls = (bytes + kHeader + kGranule - 1) / kGranule;
  const bool pooled = cls < kClasses;
  std::byte* block = nullptr;
  if (pooled && free_[cls] != nullptr) {
    block = reinterpret_cast<std::byte*>(free_[cls]);
    free_[cls] = free_[cls]->next;
  } else {
    block = static_cast<std::byte*>(::operator new(pooled ? cls* kGranule : bytes + kHeader));
    blocks_.push_back(block);
  }
  auto* h = reinterpret_cast<Header*>(block);
  h->pool = this;
  h->size_class = static_cast<std::uint32_t>(pooled ? cls : kClasses);
  return block + kHeader;
}

void FramePool::release(void* p) {
  std::byte* block = static_cast<std::byte*>(p) - kHeader;
  const auto* h = reinterpret_cast<const Header*>(block);
  FramePool* pool = h->pool;
  // An oversized frame is not reused (its size is not recorded); it stays until the pool goes. No frame
  // of this layer or its applications comes near 4 KiB.
  if (h->size_class >= kClasses) return;
  auto* f = reinterpret_cast<FreeBlock*>(block);
  f->next = pool->free_[h->size_class];
  pool->free_[h->size_class] = f;
}

}  // namespace mppnet::am
