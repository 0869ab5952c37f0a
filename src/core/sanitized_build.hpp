// core/sanitized_build.hpp: whether this build runs under AddressSanitizer (make test-asan).
//
// Sanitized builds run 20-50 times slower. A stress test whose point holds on a shorter run (a deadlock
// shows within the first thousand cycles of a saturated network) takes a shorter run there, so that CI's
// sanitized pass stays within its time; the Release pass runs it in full.
#pragma once

namespace mppnet::core {

// GCC defines __SANITIZE_ADDRESS__; clang 14 answers through __has_feature only.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MPPNET_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(MPPNET_ADDRESS_SANITIZER)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

}  // namespace mppnet::core
