/*
 * Recovery: see recovery.h. Events live in a ring of at most RING events and RING_BYTES bytes;
 * the oldest are dropped first, and a claim whose offset is older than the oldest kept event
 * fails (the connection then starts afresh, as in Socket.IO).
 */
#include "gateway/recovery.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/crypto.h"
#include "core/map.h"

#define RING       8192
#define RING_BYTES (64u * 1024 * 1024)

struct kept {
    uint64_t seq;
    int64_t at;
    char name[48];
    char *payload;
    size_t len;
    struct idset *to; /* one reference */
    size_t set_bytes; /* the set's size when this event was the first to keep it, else 0 */
};

struct parked {
    char user_id[UUID_LEN + 1];
    char token_hash[65];
    uint64_t since;
    int64_t at;
};

struct recovery {
    struct kept ring[RING];
    size_t head, count, bytes;
    uint64_t next_seq;
    uint64_t dropped_upto; /* every seq ≤ this has left the ring */
    struct map parked;
};

struct recovery *gateway__recovery_new(void)
{
    struct recovery *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->next_seq = 1;
    map_init(&r->parked);
    return r;
}

static void drop_oldest(struct recovery *r)
{
    struct kept *k = &r->ring[r->head];
    r->bytes -= k->len + k->set_bytes;
    r->dropped_upto = k->seq;
    free(k->payload);
    idset_unref(k->to);
    memset(k, 0, sizeof *k);
    r->head = (r->head + 1) % RING;
    r->count--;
}

static void free_parked(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    free(value);
}

void gateway__recovery_free(struct recovery *r)
{
    if (!r)
        return;
    while (r->count)
        drop_oldest(r);
    map_each(&r->parked, free_parked, NULL);
    map_cleanup(&r->parked);
    free(r);
}

void gateway__recovery_start_at(struct recovery *r, uint64_t last)
{
    if (last >= r->next_seq) {
        r->next_seq = last + 1;
        r->dropped_upto = last;
    }
}

uint64_t gateway__recovery_record(struct recovery *r, const char *name, const char *payload,
                                  size_t len, struct idset *to, int64_t now)
{
    return gateway__recovery_record_at(r, r->next_seq, name, payload, len, to, now);
}

uint64_t gateway__recovery_record_at(struct recovery *r, uint64_t seq, const char *name,
                                     const char *payload, size_t len, struct idset *to, int64_t now)
{
    if (seq < r->next_seq) /* out of order: not kept, and nothing before it is claimable */
        seq = r->next_seq;
    r->next_seq = seq + 1;
    /* Events of one audience share its set: count its bytes once, with the first of them. */
    const struct kept *last = r->count ? &r->ring[(r->head + r->count - 1) % RING] : NULL;
    size_t set_bytes = last && last->to == to ? 0 : idset_count(to) * (UUID_LEN + 1 + 8);
    size_t cost = len + set_bytes;
    while (r->count && (r->count == RING || r->bytes + cost > RING_BYTES))
        drop_oldest(r);
    struct kept *k = &r->ring[(r->head + r->count) % RING];
    k->payload = malloc(len ? len : 1);
    if (!k->payload) {
        memset(k, 0, sizeof *k);
        r->dropped_upto = seq; /* could not keep it: nothing before it is claimable */
        return seq;
    }
    k->seq = seq;
    k->at = now;
    slice_copy(slice_from(name), k->name, sizeof k->name);
    memcpy(k->payload, payload, len);
    k->len = len;
    k->to = idset_ref(to);
    k->set_bytes = set_bytes;
    r->count++;
    r->bytes += cost;
    return seq;
}

void gateway__recovery_new_pid(char out[RECOVERY_PID_MAX], uint64_t since)
{
    unsigned char raw[15];
    char random[24];
    crypto_random(raw, sizeof raw);
    crypto_base64url(raw, sizeof raw, random);
    snprintf(out, RECOVERY_PID_MAX, "%llu.%s", (unsigned long long)since, random);
}

uint64_t gateway__recovery_pid_position(const char *pid)
{
    const char *dot = strchr(pid, '.');
    long long v;
    if (!dot || dot == pid ||
        slice_to_i64((struct slice){pid, (size_t)(dot - pid)}, 0, INT64_MAX, &v))
        return 0;
    return (uint64_t)v;
}

uint64_t gateway__recovery_last(const struct recovery *r)
{
    return r->next_seq - 1;
}

void gateway__recovery_park(struct recovery *r, const char *pid, const char *user_id,
                            const char *token_hash, uint64_t since, int64_t now)
{
    struct parked *p = calloc(1, sizeof *p);
    if (!p)
        return;
    slice_copy(slice_from(user_id), p->user_id, sizeof p->user_id);
    slice_copy(slice_from(token_hash), p->token_hash, sizeof p->token_hash);
    p->since = since;
    p->at = now;
    free(map_remove(&r->parked, pid));
    if (map_set(&r->parked, pid, p))
        free(p);
}

void gateway__recovery_forget(struct recovery *r, const char *pid)
{
    free(map_remove(&r->parked, pid));
}

int gateway__recovery_claim(struct recovery *r, const char *pid, const char *user_id,
                            const char *token_hash, uint64_t *offset, int64_t now)
{
    struct parked *p = map_get(&r->parked, pid);
    if (!p)
        return 0;
    if (*offset == 0 || *offset < p->since)
        *offset = p->since;
    int ok = !strcmp(p->user_id, user_id) && !strcmp(p->token_hash, token_hash) &&
             now - p->at <= RECOVERY_WINDOW_MS && *offset >= r->dropped_upto &&
             *offset < r->next_seq;
    gateway__recovery_forget(r, pid);
    return ok;
}

static int addressed_to(const struct kept *k, const char *user_id)
{
    return idset_has(k->to, user_id);
}

void gateway__recovery_replay(struct recovery *r, uint64_t offset, const char *user_id,
                              void (*fn)(void *arg, uint64_t seq, const char *name,
                                         const char *payload, size_t len),
                              void *arg)
{
    for (size_t i = 0; i < r->count; i++) {
        const struct kept *k = &r->ring[(r->head + i) % RING];
        if (k->seq > offset && addressed_to(k, user_id))
            fn(arg, k->seq, k->name, k->payload, k->len);
    }
}

static void expire_parked(const char *key, void *value, void *arg)
{
    (void)key;
    struct parked *p = value;
    int64_t *now = arg;
    if (*now - p->at > RECOVERY_WINDOW_MS)
        p->at = 0; /* marked; removed below */
}

void gateway__recovery_expire(struct recovery *r, int64_t now)
{
    while (r->count && now - r->ring[r->head].at > RECOVERY_WINDOW_MS)
        drop_oldest(r);
    map_each(&r->parked, expire_parked, &now);
    /* Remove the marked ones (map_each forbids changing the map while walking it). */
    for (size_t b = 0; b < r->parked.nbuckets; b++) {
        struct map_entry *e = r->parked.buckets[b];
        while (e) {
            struct map_entry *next = e->next;
            if (((struct parked *)e->value)->at == 0)
                gateway__recovery_forget(r, e->key);
            e = next;
        }
    }
}
