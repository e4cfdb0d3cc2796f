/* Jobs on the workers, and publishing to users: see jobs.h. */
#include "gateway/jobs.h"

#include <stddef.h>

#include "bus/bus.h"
#include "core/idset.h"

static void job_on_worker(struct job *job, void *thread_ctx)
{
    struct gateway_job *j = JOB_OF(job, struct gateway_job, job);
    j->work(j, thread_ctx);
    inbox_post(j->gw->inbox, &j->item);
}

/* The inbox closes once the last worker answer is in (after a drain). */
static void job_answered(struct job *item, void *ctx)
{
    (void)ctx;
    struct gateway_job *j = JOB_OF(item, struct gateway_job, item);
    struct gateway *gw = j->gw;
    j->done(j);
    if (--gw->inflight == 0 && gw->draining && gw->inbox) {
        inbox_close(gw->inbox);
        gw->inbox = NULL;
    }
}

void gateway__run_on(struct gateway *gw, struct workers *lane, struct gateway_job *j)
{
    j->gw = gw;
    j->job.run = job_on_worker;
    j->item.run = job_answered;
    gw->inflight++;
    workers_submit(lane, &j->job);
}

void gateway__run(struct gateway *gw, struct gateway_job *j)
{
    gateway__run_on(gw, gw->workers, j);
}

void gateway__publish(struct gateway *gw, const char *name, json_t *payload,
                      const char (*to)[UUID_LEN + 1], size_t n, int everywhere)
{
    struct idset *set = n ? idset_of(to, n) : NULL;
    if (set)
        bus_publish_json(gw->bus, name, payload, set, !everywhere);
    else
        json_decref(payload);
}
