/* The portal's event console: see console.h. */
#include "state/console.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct watch {
    char app_id[UUID_LEN + 1]; /* "" = free slot */
    char bot_user_id[UUID_LEN + 1];
    struct idset *servers;
    int64_t until;
    struct console_entry ring[CONSOLE_KEPT];
    size_t next, count;
};

struct console {
    pthread_mutex_t lock;
    int active; /* watches not yet lapsed, as of the last look (atomic) */
    struct watch watches[CONSOLE_APPS];
};

struct console *state_console_new(void)
{
    struct console *c = calloc(1, sizeof *c);
    if (c)
        pthread_mutex_init(&c->lock, NULL);
    return c;
}

void state_console_free(struct console *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < CONSOLE_APPS; i++)
        idset_unref(c->watches[i].servers);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* Under the lock: frees lapsed watches and counts the rest. */
static void lapse(struct console *c, int64_t now)
{
    int active = 0;
    for (size_t i = 0; i < CONSOLE_APPS; i++) {
        struct watch *w = &c->watches[i];
        if (w->app_id[0] && w->until <= now) {
            idset_unref(w->servers);
            memset(w, 0, sizeof *w);
        }
        active += w->app_id[0] != '\0';
    }
    __atomic_store_n(&c->active, active, __ATOMIC_RELEASE);
}

int state_console_watch(struct console *c, const char *app_id, const char *bot_user_id,
                        struct idset *servers, int64_t now)
{
    pthread_mutex_lock(&c->lock);
    lapse(c, now);
    struct watch *w = NULL, *free_slot = NULL;
    for (size_t i = 0; i < CONSOLE_APPS && !w; i++) {
        if (!strcmp(c->watches[i].app_id, app_id))
            w = &c->watches[i];
        else if (!c->watches[i].app_id[0] && !free_slot)
            free_slot = &c->watches[i];
    }
    if (!w && (w = free_slot)) {
        memcpy(w->app_id, app_id, UUID_LEN + 1);
        __atomic_add_fetch(&c->active, 1, __ATOMIC_RELEASE);
    }
    if (w) {
        memcpy(w->bot_user_id, bot_user_id, UUID_LEN + 1);
        idset_unref(w->servers);
        w->servers = servers;
        w->until = now + CONSOLE_WATCH_MS;
    } else {
        idset_unref(servers);
    }
    pthread_mutex_unlock(&c->lock);
    return w ? 0 : -1;
}

int state_console_watching(const struct console *c)
{
    return __atomic_load_n(&c->active, __ATOMIC_ACQUIRE) > 0;
}

void state_console_record(struct console *c, const struct console_entry *e,
                          console_outcome_fn outcome, void *arg)
{
    pthread_mutex_lock(&c->lock);
    lapse(c, e->at);
    for (size_t i = 0; i < CONSOLE_APPS; i++) {
        struct watch *w = &c->watches[i];
        if (!w->app_id[0] || !idset_has(w->servers, e->server_id))
            continue;
        struct console_entry *slot = &w->ring[w->next];
        *slot = *e;
        slot->outcome = outcome(arg, w->bot_user_id);
        w->next = (w->next + 1) % CONSOLE_KEPT;
        if (w->count < CONSOLE_KEPT)
            w->count++;
    }
    pthread_mutex_unlock(&c->lock);
}

void state_console_settle(struct console *c, const char *app_id, uint64_t position,
                          enum console_outcome outcome)
{
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < CONSOLE_APPS; i++) {
        struct watch *w = &c->watches[i];
        if (strcmp(w->app_id, app_id))
            continue;
        for (size_t k = 0; k < w->count; k++)
            if (w->ring[k].position == position && w->ring[k].outcome == CONSOLE_NOT_HERE)
                w->ring[k].outcome = outcome;
        break;
    }
    pthread_mutex_unlock(&c->lock);
}

size_t state_console_read(struct console *c, const char *app_id, uint64_t after,
                          struct console_entry *out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < CONSOLE_APPS; i++) {
        struct watch *w = &c->watches[i];
        if (strcmp(w->app_id, app_id))
            continue;
        size_t first = (w->next + CONSOLE_KEPT - w->count) % CONSOLE_KEPT;
        for (size_t k = 0; k < w->count && n < max; k++) {
            const struct console_entry *e = &w->ring[(first + k) % CONSOLE_KEPT];
            if (e->position > after)
                out[n++] = *e;
        }
        break;
    }
    pthread_mutex_unlock(&c->lock);
    return n;
}
