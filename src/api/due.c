/*
 * What is due: scheduled messages sent and reminders told when their time comes, on whichever
 * node claims each first. A timer on the I/O thread looks every second (one indexed read, however
 * many wait); when something is due, one job on the workers takes it in batches. A message is
 * sent as its person would send it at that moment (api__channel_post / api__dm_post, with their
 * permissions then), under a nonce of its own: a node that stops between the send and the mark
 * leaves a claim that lapses, and the next attempt finds the message made instead of making a
 * second. What cannot be sent any more (a right lost, a channel gone) is marked failed with the
 * reason, and the person's pages are told either way.
 */
#include "api/due.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/access.h"
#include "api/background.h"
#include "api/dm.h"
#include "api/events.h"
#include "api/messages.h"
#include "api/place.h"
#include "api/scheduled.h"
#include "core/clock.h"
#include "core/job.h"
#include "core/log.h"
#include "core/workers.h"
#include "store/channels.h"
#include "store/messages.h"
#include "store/scheduled.h"

#define BATCH     100
#define BATCHES   20          /* per run: the rest waits for the next second */
#define CLAIM_MS  (60 * 1000) /* a claim lapses after this: a node that stopped gives it back */
#define NONCE_TAG "praca-scheduled:"

struct api_due {
    struct api_service *svc;
    struct job job;
    atomic_int running;
    atomic_ulong sent, failed, reminded;
};

/* Sends row as its person: the new message's ID in mid, or "" with why. */
static void send_as(struct api_as_person *a, json_t *row, char mid[UUID_LEN + 1], char *why,
                    size_t cap)
{
    const char *sid = json_string_value(json_object_get(row, "serverId"));
    const char *cid = json_string_value(json_object_get(row, "channelId"));
    char nonce[64];
    snprintf(nonce, sizeof nonce, NONCE_TAG "%s", json_string_value(json_object_get(row, "id")));
    json_t *body = json_pack("{s:O,s:s,s:b}", "content", json_object_get(row, "content"), "nonce",
                             nonce, "enforceNonce", 1);
    json_t *msg = NULL;
    mid[0] = '\0';
    if (sid) {
        struct place p;
        size_t len;
        char *text = NULL;
        if (!api__place_at(&a->c, sid, cid, &p) && !api__send_allowed(&a->c, &p))
            text = api__channel_post(&a->c, &p, body, NULL, &len);
        msg = text ? json_loadb(text, len, 0, NULL) : NULL;
        free(text);
    } else if (store_dm_member(a->c.db, cid, a->c.me.user_id) == 1) {
        msg = api__dm_post(&a->c, cid, body, NULL);
    } else {
        snprintf(why, cap, "Conversa não encontrada");
    }
    const char *id = json_string_value(json_object_get(msg, "id"));
    if (id)
        snprintf(mid, UUID_LEN + 1, "%s", id);
    else if (a->c.answered)
        api__as_person_refusal(a, why, cap);
    else if (!why[0])
        snprintf(why, cap, "Erro interno");
    json_decref(msg);
    json_decref(body);
}

static void send_one(struct api_due *d, struct store *db, json_t *row, int64_t now)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    const char *uid = json_string_value(json_object_get(row, "userId"));
    struct store_claim claim = {.id = id, .now = now, .until = now + CLAIM_MS};
    if (store_scheduled_claim(d->svc->writer, &claim) < 0 || !claim.changes)
        return; /* another node has it, or it was cancelled meanwhile */
    struct api_as_person a;
    api__as_person_begin(&a, d->svc, db, uid);
    char mid[UUID_LEN + 1], why[512] = "";
    send_as(&a, row, mid, why, sizeof why);
    struct store_scheduled_end end = {
        .id = id, .message_id = mid[0] ? mid : NULL, .error = mid[0] ? NULL : why};
    if (store_scheduled_end(d->svc->writer, &end) < 0)
        log_error("scheduled: message %s could not be marked", id);
    atomic_fetch_add(mid[0] ? &d->sent : &d->failed, 1);
    api__scheduled_told(&a.c, id);
    api__as_person_end(&a);
}

static void remind_one(struct api_due *d, struct store *db, json_t *row, int64_t now)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    struct store_claim claim = {.id = id, .now = now, .until = now + CLAIM_MS};
    if (store_reminder_claim(d->svc->writer, &claim) < 0 || !claim.changes)
        return;
    struct api_as_person a;
    api__as_person_begin(&a, d->svc, db, json_string_value(json_object_get(row, "userId")));
    if (api__reminder_told(&a.c, row) < 0)
        log_error("reminders: reminder %s could not be ended", id);
    atomic_fetch_add(&d->reminded, 1);
    api__as_person_end(&a);
}

/* One batch of each: how many were due (a full batch: more may wait). */
static size_t run_batch(struct api_due *d, struct store *db)
{
    int64_t now = clock_now_ms();
    json_t *messages = store_scheduled_due(db, now, BATCH);
    json_t *reminders = store_reminders_due(db, now, BATCH);
    store_read_release(db);
    size_t i, n = json_array_size(messages) + json_array_size(reminders);
    json_t *row;
    json_array_foreach(messages, i, row) send_one(d, db, row, now);
    json_array_foreach(reminders, i, row) remind_one(d, db, row, now);
    if (!messages || !reminders)
        log_error("due: what is due could not be read");
    json_decref(messages);
    json_decref(reminders);
    return n;
}

static void due_run(struct job *job, void *thread_ctx)
{
    struct api_due *d = JOB_OF(job, struct api_due, job);
    for (int k = 0; k < BATCHES && run_batch(d, thread_ctx) >= BATCH; k++)
        ;
    atomic_store(&d->running, 0);
}

struct api_due *api_due_new(struct api_service *svc)
{
    struct api_due *d = calloc(1, sizeof *d);
    if (d) {
        d->svc = svc;
        d->job.run = due_run;
    }
    return d;
}

void api_due_tick(struct api_due *d)
{
    if (d && !atomic_exchange(&d->running, 1))
        workers_submit(d->svc->workers, &d->job);
}

void api_due_stats(struct api_due *d, unsigned long *sent, unsigned long *failed,
                   unsigned long *reminded)
{
    *sent = atomic_load(&d->sent);
    *failed = atomic_load(&d->failed);
    *reminded = atomic_load(&d->reminded);
}

void api_due_free(struct api_due *d)
{
    free(d);
}
