#ifndef CTHREAD_SLICE_H
#define CTHREAD_SLICE_H

#include <stdint.h>

/// Sets the calling thread's scheduling slice (Linux's EEVDF scheduler, 6.12 and later: `sched_setattr`'s
/// `sched_runtime` for a normal thread, clamped by the kernel to 0.1–100 ms), keeping its policy and nice value;
/// 0 goes back to the kernel's default slice. A kernel without custom slices ignores the value.
///
/// Returns 0, or the `errno` of the failure (`ENOSYS` where the call does not exist, `EINVAL` for a thread of
/// another policy than `SCHED_OTHER`/`SCHED_BATCH`, which is left as it is).
int cthread_slice_set(uint64_t nanoseconds);

/// The calling thread's slice in nanoseconds, as `sched_getattr` reports it (0 where the kernel reports none), or
/// minus the `errno` of the failure.
int64_t cthread_slice_get(void);

#endif
