/* The directory's snapshot: see directory.h. */
#include "state/directory.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/map.h"
#include "core/uuid.h"
#include "domain/directory_rules.h"
#include "store/directory.h"

#define STATUS_BATCH           256 /* members whose statuses are asked at once */
#define DIRECTORY_POPULAR_TAGS 20

struct entry {
    json_t *json;     /* what the directory shows */
    char *folded;     /* name, description, then each tag after a "\n", folded: searched */
    const char *tags; /* in folded: "\ntag\ntag\n" (a tag is found as "\ntag\n") */
    struct directory_rank rank;
};

struct snapshot {
    atomic_int refs;
    struct entry *entries; /* in the directory's order */
    size_t n, cap;
    json_t *tags; /* the most used, most first: [{tag, count}] */
    int64_t built_at;
};

struct directory {
    pthread_mutex_t lock;  /* the current snapshot and the stale mark */
    pthread_mutex_t build; /* one reader builds at a time */
    struct snapshot *current;
    int stale;
    int64_t refresh_ms;
};

static void snapshot_unref(struct snapshot *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    for (size_t i = 0; i < s->n; i++) {
        json_decref(s->entries[i].json);
        free(s->entries[i].folded);
    }
    free(s->entries);
    json_decref(s->tags);
    free(s);
}

struct directory *state_directory_new(int64_t refresh_ms)
{
    struct directory *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    pthread_mutex_init(&d->lock, NULL);
    pthread_mutex_init(&d->build, NULL);
    d->refresh_ms = refresh_ms;
    return d;
}

void state_directory_free(struct directory *d)
{
    if (!d)
        return;
    snapshot_unref(d->current);
    pthread_mutex_destroy(&d->lock);
    pthread_mutex_destroy(&d->build);
    free(d);
}

void state_directory_stale(struct directory *d)
{
    pthread_mutex_lock(&d->lock);
    d->stale = 1;
    pthread_mutex_unlock(&d->lock);
}

/* The text a search looks in: name, description and tags, folded. */
static char *folded_text(const struct store_directory_row *r, json_t *tags, size_t *tags_at)
{
    size_t cap = 2 * (strlen(r->name) + strlen(r->description)) + 8 + 1;
    size_t i;
    json_t *t;
    json_array_foreach(tags, i, t) cap += json_string_length(t) + 1;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t n = rule_directory_fold(r->name, strlen(r->name), out, cap);
    out[n++] = '\n';
    n += rule_directory_fold(r->description, strlen(r->description), out + n, cap - n);
    *tags_at = n;
    json_array_foreach(tags, i, t)
    {
        out[n++] = '\n';
        memcpy(out + n, json_string_value(t), json_string_length(t));
        n += json_string_length(t);
    }
    out[n++] = '\n';
    out[n] = '\0';
    return out;
}

static json_t *entry_json(const struct store_directory_row *r, json_t *tags)
{
    char iso[CLOCK_ISO_LEN + 1], icon[96];
    clock_format_iso(r->created_at, iso);
    snprintf(icon, sizeof icon, "/api/servers/%s/icon?v=%lld", r->id, (long long)r->icon_version);
    return json_pack("{sssssssOsosIsIss}", "id", r->id, "name", r->name, "description",
                     r->description, "tags", tags, "iconUrl",
                     r->icon_version ? json_string(icon) : json_null(), "memberCount",
                     (json_int_t)r->members, "onlineCount", (json_int_t)0, "createdAt", iso);
}

static int add_row(const struct store_directory_row *r, void *arg)
{
    struct snapshot *s = arg;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct entry *e = realloc(s->entries, cap * sizeof *e);
        if (!e)
            return STORE_ERR;
        s->entries = e;
        s->cap = cap;
    }
    json_t *tags = json_loads(r->tags_json, 0, NULL);
    if (!json_is_array(tags)) {
        json_decref(tags);
        tags = json_array();
    }
    struct entry *e = &s->entries[s->n];
    e->json = entry_json(r, tags);
    size_t tags_at = 0;
    e->folded = folded_text(r, tags, &tags_at);
    e->tags = e->folded ? e->folded + tags_at : NULL;
    json_decref(tags);
    if (!e->json || !e->folded) {
        json_decref(e->json);
        free(e->folded);
        return STORE_ERR;
    }
    s->n++;
    e->rank = (struct directory_rank){.online = 0,
                                      .members = r->members,
                                      .created_at = r->created_at,
                                      .id = json_string_value(json_object_get(e->json, "id"))};
    return 0;
}

/* Counting who is online: members come in server order; their statuses are asked in batches. */
struct counting {
    struct presence *presence;
    struct map by_id; /* server ID → entry */
    struct entry *entry;
    char ids[STATUS_BATCH][UUID_LEN + 1];
    size_t n;
};

static void count_batch(struct counting *c)
{
    const char *ids[STATUS_BATCH], *status[STATUS_BATCH];
    for (size_t i = 0; i < c->n; i++)
        ids[i] = c->ids[i];
    if (c->n && c->entry && !state_presence_statuses(c->presence, ids, c->n, status))
        for (size_t i = 0; i < c->n; i++)
            c->entry->rank.online += strcmp(status[i], "offline") != 0;
    c->n = 0;
}

static int count_member(const char *sid, const char *uid, void *arg)
{
    struct counting *c = arg;
    if (!c->entry || strcmp(json_string_value(json_object_get(c->entry->json, "id")), sid)) {
        count_batch(c);
        c->entry = map_get(&c->by_id, sid);
    }
    if (c->entry && strlen(uid) == UUID_LEN) {
        memcpy(c->ids[c->n++], uid, UUID_LEN + 1);
        if (c->n == STATUS_BATCH)
            count_batch(c);
    }
    return 0;
}

struct tag_count {
    const char *tag;
    size_t count;
};

static void collect_tag(const char *key, void *value, void *arg)
{
    struct tag_count **next = arg;
    (void)key;
    *(*next)++ = *(struct tag_count *)value;
}

static int by_count(const void *a, const void *b)
{
    const struct tag_count *x = a, *y = b;
    return x->count != y->count ? (x->count < y->count ? 1 : -1) : strcmp(x->tag, y->tag);
}

/* The most used tags, most first, as {tag, count}. */
static json_t *popular_tags(const struct snapshot *s, size_t n)
{
    struct map counts;
    map_init(&counts);
    struct tag_count *all = calloc(s->n * DIRECTORY_TAGS_MAX + 1, sizeof *all), *used = all;
    int ok = all != NULL;
    for (size_t i = 0; ok && i < s->n; i++) {
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(s->entries[i].json, "tags"), k, t)
        {
            struct tag_count *c = map_get(&counts, json_string_value(t));
            if (!c && used < all + s->n * DIRECTORY_TAGS_MAX) {
                c = used++;
                c->tag = json_string_value(t);
                ok = map_set(&counts, c->tag, c) == 0;
            }
            if (c)
                c->count++;
        }
    }
    struct tag_count *sorted = ok ? calloc(counts.count + 1, sizeof *sorted) : NULL, *end = sorted;
    json_t *out = sorted ? json_array() : NULL;
    if (out) {
        map_each(&counts, collect_tag, &end);
        if (counts.count)
            qsort(sorted, counts.count, sizeof *sorted, by_count);
        for (size_t i = 0; i < counts.count && i < n; i++)
            json_array_append_new(out, json_pack("{sssI}", "tag", sorted[i].tag, "count",
                                                 (json_int_t)sorted[i].count));
    }
    free(sorted);
    free(all);
    map_cleanup(&counts);
    return out;
}

static int by_rank(const void *a, const void *b)
{
    return rule_directory_cmp(&((const struct entry *)a)->rank, &((const struct entry *)b)->rank);
}

static struct snapshot *build(struct store *db, struct presence *p)
{
    struct snapshot *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    atomic_init(&s->refs, 1);
    struct counting c = {.presence = p};
    map_init(&c.by_id);
    int rc = store_directory_each(db, add_row, s);
    for (size_t i = 0; rc >= 0 && i < s->n; i++)
        if (map_set(&c.by_id, s->entries[i].rank.id, &s->entries[i]) < 0)
            rc = STORE_ERR;
    if (rc >= 0 && s->n)
        rc = store_directory_members_each(db, count_member, &c);
    count_batch(&c);
    map_cleanup(&c.by_id);
    if (rc < 0) {
        snapshot_unref(s);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++)
        json_object_set_new(s->entries[i].json, "onlineCount",
                            json_integer(s->entries[i].rank.online));
    if (s->n)
        qsort(s->entries, s->n, sizeof *s->entries, by_rank);
    s->built_at = clock_mono_ms();
    if (!(s->tags = popular_tags(s, DIRECTORY_POPULAR_TAGS))) {
        snapshot_unref(s);
        return NULL;
    }
    return s;
}

/* A change marks the snapshot stale; it is read again at most once a second for it. */
#define STALE_MIN_MS 1000

static int fresh(const struct directory *d, const struct snapshot *s)
{
    int64_t age = s ? clock_mono_ms() - s->built_at : 0;
    return s && age < d->refresh_ms && !(d->stale && age >= STALE_MIN_MS);
}

/* The snapshot to read (one reference): the current one, or a new one when it is old and no
 * one else is reading it again. NULL on an error. */
static struct snapshot *snapshot(struct directory *d, struct store *db, struct presence *p)
{
    pthread_mutex_lock(&d->lock);
    struct snapshot *s = d->current;
    if (fresh(d, s)) {
        atomic_fetch_add(&s->refs, 1);
        pthread_mutex_unlock(&d->lock);
        return s;
    }
    pthread_mutex_unlock(&d->lock);
    /* Old: build it again, unless someone is; then the old one serves (or wait when none). */
    if (pthread_mutex_trylock(&d->build)) {
        pthread_mutex_lock(&d->lock);
        if ((s = d->current))
            atomic_fetch_add(&s->refs, 1);
        pthread_mutex_unlock(&d->lock);
        if (s)
            return s;
        pthread_mutex_lock(&d->build);
    }
    pthread_mutex_lock(&d->lock);
    int again = !fresh(d, d->current);
    d->stale = 0; /* a change from here on marks the new one */
    pthread_mutex_unlock(&d->lock);
    struct snapshot *made = again ? build(db, p) : NULL;
    pthread_mutex_lock(&d->lock);
    if (made) {
        snapshot_unref(d->current);
        d->current = made;
    } else if (again) {
        d->stale = 1;
    }
    if ((s = d->current))
        atomic_fetch_add(&s->refs, 1);
    pthread_mutex_unlock(&d->lock);
    pthread_mutex_unlock(&d->build);
    if (again && !made) /* the old one serves meanwhile, when there is one */
        log_error("directory: the discoverable servers could not be read");
    return s;
}

json_t *state_directory_list(struct directory *d, struct store *db, struct presence *p,
                             const struct directory_query *q, size_t *total)
{
    struct snapshot *s = snapshot(d, db, p);
    if (!s)
        return NULL;
    struct directory_words w;
    rule_directory_words(q->q ? q->q : "", q->q ? q->q_len : 0, &w);
    char tag[DIRECTORY_TAG_MAX + 3]; /* "\ntag\n" */
    if (q->tag)
        snprintf(tag, sizeof tag, "\n%.*s\n", DIRECTORY_TAG_MAX, q->tag);
    json_t *page = json_array();
    size_t found = 0;
    for (size_t i = 0; page && i < s->n; i++) {
        const struct entry *e = &s->entries[i];
        if ((q->tag && !strstr(e->tags, tag)) || !rule_directory_match(e->folded, &w))
            continue;
        if (found >= q->offset && found < q->offset + q->limit)
            json_array_append(page, e->json);
        found++;
    }
    snapshot_unref(s);
    *total = found;
    return page;
}

json_t *state_directory_entry(struct directory *d, struct store *db, struct presence *p,
                              const char *sid, int *rc)
{
    struct snapshot *s = snapshot(d, db, p);
    *rc = s ? 0 : STORE_ERR;
    json_t *out = NULL;
    for (size_t i = 0; s && i < s->n && !out; i++)
        if (!strcmp(s->entries[i].rank.id, sid))
            out = json_incref(s->entries[i].json);
    snapshot_unref(s);
    return out;
}

json_t *state_directory_tags(struct directory *d, struct store *db, struct presence *p)
{
    struct snapshot *s = snapshot(d, db, p);
    json_t *out = s ? json_incref(s->tags) : NULL;
    snapshot_unref(s);
    return out;
}
