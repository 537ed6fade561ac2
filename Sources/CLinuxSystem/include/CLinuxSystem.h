// The Linux calls Swift's Glibc module leaves out: thread CPU affinity (GNU extensions,
// which need _GNU_SOURCE, so they are wrapped in shims.c) and epoll/timerfd (their headers
// are not in Glibc's module map). Juke pins its event loops with the first and the
// benchmarks' load clients wait with the second; both were once reached through SwiftNIO's
// internal CNIOLinux module, which is not SwiftNIO's to promise.
#ifndef C_LINUX_SYSTEM_H
#define C_LINUX_SYSTEM_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/timerfd.h>

/// The CPUs the calling thread may run on, written to `cpus` (at most `capacity`, in
/// order). Returns how many, or -1 with errno set.
int juke_thread_allowed_cpus(int *cpus, int capacity);

/// Lets the calling thread run on `cpu` only. Returns 0, or an errno value (EINVAL for a
/// CPU outside the set's range).
int juke_pin_thread_to_cpu(int cpu);
#endif

#endif
