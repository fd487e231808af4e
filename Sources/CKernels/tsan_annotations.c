#include "tsan_annotations.h"

#if defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define LP_TSAN 1
#  endif
#endif

#ifdef LP_TSAN
// TSan's own annotation entry points (its runtime defines them).
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void lp_tsan_acquire(void *addr) { __tsan_acquire(addr); }
void lp_tsan_release(void *addr) { __tsan_release(addr); }
#else
void lp_tsan_acquire(void *addr) { (void)addr; }
void lp_tsan_release(void *addr) { (void)addr; }
#endif
