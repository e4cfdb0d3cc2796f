/* Who was online when this node stopped: see presence_carry.h. */
#include "gateway/presence_carry.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/uuid.h"
#include "gateway/internal.h"
#include "gateway/presence_live.h"
#include "state/presence.h"

#define CARRIED_MAX 1000000 /* people a file may carry: 37 MB of IDs at most */
#define HEADER      "praca-presence-carry 1"

struct carry {
    char (*ids)[UUID_LEN + 1];
    size_t n;
    int64_t until_ms; /* uv_now when the stand-ins close */
};

struct saving {
    FILE *f;
    int failed;
};

static void write_id(const char *user_id, void *value, void *arg)
{
    (void)value;
    struct saving *s = arg;
    if (fprintf(s->f, "%s\n", user_id) < 0)
        s->failed = 1;
}

int gateway_carry_save(struct gateway *gw, const char *path)
{
    char part[1100];
    snprintf(part, sizeof part, "%s.part", path);
    struct saving s = {fopen(part, "w"), 0};
    if (!s.f) {
        log_warn("presence: %s not written: who was online is not carried", part);
        return -1;
    }
    fprintf(s.f, HEADER " %" PRId64 "\n", clock_now_ms());
    map_each(&gw->users, write_id, &s);
    if (fclose(s.f) || s.failed || rename(part, path)) {
        remove(part);
        log_warn("presence: %s not written: who was online is not carried", path);
        return -1;
    }
    log_info("presence: %zu people online carried to the next start", gw->users.count);
    return 0;
}

/* The IDs of a fresh file, or NULL (none, stale, or unreadable). */
static struct carry *read_carry(const char *path, int64_t carry_ms)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char line[128];
    int64_t at = 0;
    struct carry *c = NULL;
    if (fgets(line, sizeof line, f) && !strncmp(line, HEADER " ", sizeof HEADER))
        at = strtoll(line + sizeof HEADER, NULL, 10);
    if (at > 0 && clock_now_ms() - at >= 0 && clock_now_ms() - at < carry_ms)
        c = calloc(1, sizeof *c);
    size_t cap = 0;
    while (c && fgets(line, sizeof line, f) && c->n < CARRIED_MAX) {
        size_t len = strcspn(line, "\n");
        if (len != UUID_LEN || !uuid_valid(line, len))
            continue;
        if (c->n == cap) {
            cap = cap ? cap * 2 : 1024;
            void *more = realloc(c->ids, cap * sizeof *c->ids);
            if (!more)
                break;
            c->ids = more;
        }
        memcpy(c->ids[c->n], line, UUID_LEN);
        c->ids[c->n++][UUID_LEN] = 0;
    }
    fclose(f);
    return c;
}

long gateway_carry_load(struct gateway *gw, const char *path, int64_t carry_ms)
{
    struct carry *c = carry_ms > 0 ? read_carry(path, carry_ms) : NULL;
    remove(path); /* read once: a later start carries nothing stale */
    if (!c)
        return 0;
    for (size_t i = 0; i < c->n; i++)
        state_presence_connected(gw->presence, c->ids[i]);
    c->until_ms = (int64_t)uv_now(gw->loop) + carry_ms;
    gw->carry = c;
    log_info("presence: %zu people carried online for %" PRId64 " ms while their pages come back",
             c->n, carry_ms);
    return (long)c->n;
}

void gateway__carry_tick(struct gateway *gw)
{
    struct carry *c = gw->carry;
    if (!c || (int64_t)uv_now(gw->loop) < c->until_ms)
        return;
    for (size_t i = 0; i < c->n; i++)
        if (state_presence_disconnected(gw->presence, c->ids[i]))
            gateway__presence_note(gw, c->ids[i]); /* not back: gone, as anyone goes */
    gateway__carry_free(gw);
}

void gateway__carry_free(struct gateway *gw)
{
    if (gw->carry)
        free(gw->carry->ids);
    free(gw->carry);
    gw->carry = NULL;
}
