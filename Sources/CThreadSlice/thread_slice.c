// The calling thread's EEVDF slice (cthread_slice.h). glibc has no wrapper for sched_setattr/sched_getattr: the
// system calls, with the kernel's struct sched_attr (its first version, 48 bytes).
#define _GNU_SOURCE
#include "cthread_slice.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

struct cthread_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
};

int cthread_slice_set(uint64_t nanoseconds) {
#if defined(SYS_sched_setattr)
    int policy = sched_getscheduler(0);
    if (policy < 0) return errno;
    if (policy != SCHED_OTHER && policy != SCHED_BATCH) return EINVAL;
    // The thread's nice value, kept: sched_setattr sets the nice value with the slice.
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, 0);
    if (nice == -1 && errno != 0) return errno;
    struct cthread_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.sched_policy = (uint32_t)policy;
    attr.sched_nice = nice;
    attr.sched_runtime = nanoseconds;
    return syscall(SYS_sched_setattr, 0, &attr, 0) == 0 ? 0 : errno;
#else
    (void)nanoseconds;
    return ENOSYS;
#endif
}

int64_t cthread_slice_get(void) {
#if defined(SYS_sched_getattr)
    struct cthread_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    if (syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return -(int64_t)errno;
    return (int64_t)attr.sched_runtime;
#else
    return -(int64_t)ENOSYS;
#endif
}
