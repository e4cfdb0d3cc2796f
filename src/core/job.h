/*
 * Work handed from one thread to another, in one shape whichever lane takes it: a pool of
 * workers (core/workers.h), the writer (store/writer.h) or the I/O thread's inbox
 * (core/inbox.h). The lane runs run on its own thread with that thread's context (a worker's or
 * the writer's database connection; NULL on the I/O thread), then, when it is set, done once it
 * has settled the job (the writer: after the commit, ok 0 when it failed). Intrusive: embed a
 * struct job and find the whole again with JOB_OF.
 */
#ifndef PRACA_CORE_JOB_H
#define PRACA_CORE_JOB_H
#include <stddef.h>
#include <stdint.h>

struct job {
    void (*run)(struct job *job, void *ctx);
    void (*done)(struct job *job, int ok); /* may free the job */
    struct job *next;                      /* the lane's */
    uint64_t queued_ns;                    /* the lane's: when it was handed over */
};

/* The struct of type that holds job as its member. */
#define JOB_OF(job, type, member) ((type *)(void *)((char *)(job)-offsetof(type, member)))

#endif
