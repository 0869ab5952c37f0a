// core/sanitized_build.hpp: whether this build runs under AddressSanitizer (make test-asan).
//
// Sanitized builds run 20-50 times slower. A stress test whose point holds on a shorter run (a deadlock
// shows within the first thousand cycles of a saturated network) takes a shorter run there, so that CI's
// sanitized pass stays within its time; the Release pass runs it in full.
#pragma once

namespace mppnet::core {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

}  // namespace mppnet::core
