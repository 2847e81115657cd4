#ifndef BRIDGED_CYIELD_POINT_H
#define BRIDGED_CYIELD_POINT_H

#include <stdint.h>

/* Yield points: where long work (a request run off the event loops, issue 30, item 6) gives its core to a thread
 * waiting for it. Work calls cyield_point(units) as it goes, `units` being about a quarter of a microsecond of work
 * each. On a thread that has not called cyield_point_begin that is one thread-local load and a branch; on one that
 * has, every `every` units the thread calls sched_yield(2).
 *
 * Why: Linux's EEVDF scheduler (6.12 and later, 6.18 here) does not always let a thread woken on the core where
 * long work runs take that core at once, even a thread with a shorter slice (LoopSlices), while the core beside it
 * idles: perf sched showed event-loop threads and clients waiting 1-4 ms, to the next tick or the work's end, during
 * a setChildren of 50,000 children, whose loops enter the kernel for nothing (no allocation, no page fault). A yield
 * puts the running thread behind the ones waiting for its core; with none waiting it returns at once (about half
 * a microsecond). */

/* The units left before the calling thread yields; 0: this thread does not yield. */
extern _Thread_local uint32_t cyield_point_left;

/* Yields and starts counting again (the slow path of cyield_point). */
void cyield_point_yield(void);

/* Counts `units` of work done on the calling thread, and yields when its budget is spent. */
static inline __attribute__((always_inline)) void cyield_point(uint32_t units) {
    uint32_t left = cyield_point_left;
    if (__builtin_expect(left == 0, 1)) return;
    if (left > units) {
        cyield_point_left = left - units;
        return;
    }
    cyield_point_yield();
}

/* From now on the calling thread yields every `every` units (at least 1). */
void cyield_point_begin(uint32_t every);
/* The calling thread yields no more. */
void cyield_point_end(void);
/* How many times the calling thread has yielded at a yield point, since it started. */
uint64_t cyield_point_yields(void);

#endif
