// am/task.hpp: Task<T>, the coroutine type of node programs and of the operations built from them.
//
// A Task is lazy: it starts when awaited and resumes its awaiter by symmetric transfer when it ends, so
// nested tasks (a collective inside a program) cost no scheduler round trip. Its frame comes from the
// machine's FramePool (am/frame_pool.hpp): every Task coroutine takes a `Node&` among its parameters,
// and the promise's operator new finds it there. A coroutine without a Node& parameter does not compile,
// which keeps every frame off the heap. A top-level program (no awaiter) ends on a no-op coroutine and
// the machine sees it done().
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <utility>

#include "am/frame_pool.hpp"

namespace mppnet::am {

class Node;
FramePool& frame_pool_of(Node& node);  // defined in node.cpp

namespace detail {

template <class A>
constexpr bool is_node_v = std::is_same_v<std::remove_cvref_t<A>, Node>;

template <class First, class... Rest>
Node& find_node(First& first, Rest&... rest) {
  if constexpr (is_node_v<First>) {
    return first;
  } else {
    static_assert(sizeof...(Rest) > 0, "a Task coroutine must take a Node& parameter (its frame pool)");
    return find_node(rest...);
  }
}

struct PromiseBase {
  template <class... A>
  static void* operator new(std::size_t bytes, A&... args) {
    return frame_pool_of(find_node(args...)).allocate(bytes);
  }
  static void operator delete(void* p, std::size_t) { FramePool::release(p); }

  std::suspend_always initial_suspend() noexcept { return {}; }
  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
      auto next = h.promise().continuation;
      return next ? next : std::noop_coroutine();
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }
  void unhandled_exception() { error = std::current_exception(); }

  std::coroutine_handle<> continuation;
  std::exception_ptr error;
};

template <class T>
struct Promise : PromiseBase {
  template <class U>
  void return_value(U&& v) {
    value = std::forward<U>(v);
  }
  T value{};
};

template <>
struct Promise<void> : PromiseBase {
  void return_void() {}
};

}  // namespace detail

template <class T = void>
class [[nodiscard]] Task {
 public:
  struct promise_type : detail::Promise<T> {
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
  };
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle h) : h_(h) {}
  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task& operator=(Task&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() {
    if (h_) h_.destroy();
  }

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    h_.promise().continuation = awaiter;
    return h_;
  }
  T await_resume() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    if constexpr (!std::is_void_v<T>) return std::move(h_.promise().value);
  }

  // For the machine, which starts top-level programs itself.
  Handle handle() const { return h_; }
  bool done() const { return h_ && h_.done(); }
  // Rethrows what the coroutine threw, if it ended by an exception.
  void rethrow_if_failed() const {
    if (h_ && h_.promise().error) std::rethrow_exception(h_.promise().error);
  }

 private:
  Handle h_;
};

}  // namespace mppnet::am
