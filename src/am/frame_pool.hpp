// am/frame_pool.hpp: coroutine frames from size-class free lists, so resumption never allocates.
//
// Every node program and nested task frame of one machine comes from its FramePool. A freed frame goes
// back to the free list of its size class; the heap is touched only when more frames of a class are
// alive than ever before (and for frames larger than the biggest class). Each block carries a small
// header naming its pool and class, so the promise's sized operator delete needs no context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mppnet::am {

class FramePool {
 public:
  FramePool() = default;
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;
  ~FramePool();

  void* allocate(std::size_t bytes);
  // REQUIRES: p came from allocate() of a pool that is still alive.
  static void release(void* p);

  std::int64_t heap_blocks() const { return static_cast<std::int64_t>(blocks_.size()); }

 private:
  static constexpr std::size_t kGranule = 64;
  static constexpr std::size_t kClasses = 64;  // frames up to 4 KiB are pooled
  struct Header {
    FramePool* pool;
    std::uint32_t size_class;  // kClasses for an unpooled (oversized) frame
  };
  static constexpr std::size_t kHeader = 16;
  static_assert(sizeof(Header) <= kHeader);

  struct FreeBlock {
    FreeBlock* next;
  };
  FreeBlock* free_[kClasses + 1] = {};
  std::vector<void*> blocks_;  // every block from the heap, freed with the pool
};

}  // namespace mppnet::am
