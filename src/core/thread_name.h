/*
 * Names the calling thread (at most 15 bytes shown), so `top -H`, `ps -L` and `perf report
 * --sort comm` tell the writer from the I/O thread and the workers.
 */
#ifndef PRACA_CORE_THREAD_NAME_H
#define PRACA_CORE_THREAD_NAME_H

void thread_name(const char *name);

#endif
