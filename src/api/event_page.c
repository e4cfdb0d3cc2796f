/* A bot's page of the event log: see event_page.h. */
#include "api/event_page.h"

#include <stdio.h>

#include "core/buf.h"
#include "core/jsonout.h"
#include "state/entitle.h"
#include "store/event_log.h"

#define EVENTS_SCAN_MAX 20000 /* log rows looked at per page, so one page stays cheap */

struct reader {
    struct entitle entitle;
    const char *user_id;
    struct api_event_page *page;
    struct buf *text;
    long limit;
    size_t bytes, used;
    int full;
};

static void take(void *arg, const struct store_event *e)
{
    struct reader *r = arg;
    if (r->full)
        return; /* past the page: not looked at, so `next` stops before it */
    r->page->next = e->position;
    if (!state_entitled(&r->entitle, r->user_id, e))
        return;
    char position[24];
    snprintf(position, sizeof position, "%llu", (unsigned long long)e->position);
    if (r->text) {
        struct jsonout_obj o;
        if (r->page->count && buf_append(r->text, ",", 1) != BUF_OK)
            return;
        jsonout_obj_begin(&o, r->text);
        jsonout_obj_str(&o, "position", position);
        jsonout_obj_str(&o, "type", e->type);
        jsonout_obj_raw(&o, "data", e->payload, "null");
        if (jsonout_obj_end(&o) != BUF_OK)
            return;
    } else {
        json_t *data = json_loadb(e->payload, e->len, 0, NULL);
        json_t *item =
            data ? json_pack("{sssssO}", "position", position, "type", e->type, "data", data)
                 : NULL;
        json_decref(data);
        if (!item || json_array_append_new(r->page->events, item))
            return;
    }
    r->page->count++;
    r->used += e->len;
    r->full = (long)r->page->count >= r->limit || r->used >= r->bytes;
}

int api__event_page(struct store *db, struct state *state, const char *user_id, uint64_t after,
                    long limit, size_t bytes, struct buf *text, struct api_event_page *out)
{
    *out = (struct api_event_page){.events = text ? NULL : json_array(), .next = after};
    uint64_t first, last;
    if ((!text && !out->events) || store_events_bounds(db, &first, &last) != STORE_DONE) {
        json_decref(out->events);
        return -1;
    }
    struct reader r = {{.state = state, .db = db}, user_id, out, text, limit, bytes, 0, 0};
    long rows = store_events_after(db, after, EVENTS_SCAN_MAX, take, &r);
    state_entitle_done(&r.entitle);
    if (rows < 0) {
        json_decref(out->events);
        return -1;
    }
    out->more = r.full || rows == EVENTS_SCAN_MAX;
    /* Nothing more in the log: the next page starts after its end (later events follow). */
    if (!out->more && last > out->next)
        out->next = last;
    if (first > after + 1 && after < last)
        out->oldest = first;
    return 0;
}
