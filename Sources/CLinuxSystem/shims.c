// The affinity calls and CPU_* macros are GNU extensions: visible with _GNU_SOURCE only,
// which must come before the first system header.
#ifdef __linux__
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>

#include "CLinuxSystem.h"

int juke_thread_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    int code = pthread_getaffinity_np(pthread_self(), sizeof(set), &set);
    if (code != 0) {
        errno = code;
        return -1;
    }
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
}

int juke_pin_thread_to_cpu(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}
#endif
