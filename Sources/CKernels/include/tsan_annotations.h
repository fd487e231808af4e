#ifndef LP_TSAN_ANNOTATIONS_H
#define LP_TSAN_ANNOTATIONS_H
// Tells ThreadSanitizer about a lock it cannot see. Synchronization.Mutex locks with atomics and futex calls
// inside the Swift runtime, which is not built with TSan, so TSan sees no ordering between two threads that
// take the same Mutex and reports every guarded access as a race. `Guarded` (LayerGraphics) calls these just
// after taking its Mutex and just before giving it back. They live in a C file (tsan_annotations.c) because
// only clang compiling C knows whether this build has TSan; without it they do nothing.

/// After taking the lock at `addr`: what the last holder did happened before what follows.
void lp_tsan_acquire(void *addr);
/// Before giving the lock at `addr` back.
void lp_tsan_release(void *addr);

#endif
