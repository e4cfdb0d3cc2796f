/* Link previews: see previews.h. */
#include "store/previews.h"

#include <stdio.h>
#include <string.h>

#include "domain/message_rules.h"
#include "store/rows.h"

int store_link_preview_get(struct store *db, const char *url, int64_t now, int *found,
                           struct preview_page *page)
{
    static const char *SQL = "SELECT fetched_at, found, title, description, site_name,"
                             " COALESCE(image_url, '') FROM link_previews WHERE url = $1";
    int rc;
    struct store_stmt *st = store__row(db, SQL, url, &rc);
    if (!st)
        return rc < 0 ? rc : 0;
    int64_t at = store__int(st, 0);
    *found = store__int(st, 1) != 0;
    int fresh = now - at < (*found ? PREVIEW_FOUND_TTL_MS : PREVIEW_MISSING_TTL_MS);
    memset(page, 0, sizeof *page);
    store__text_copy(st, 2, page->title, sizeof page->title);
    store__text_copy(st, 3, page->description, sizeof page->description);
    store__text_copy(st, 4, page->site_name, sizeof page->site_name);
    store__text_copy(st, 5, page->image, sizeof page->image);
    store__finish(st);
    return fresh;
}

static int link_preview_put_at(struct store *db, struct store_link_preview *p)
{
    static const char *SQL =
        "INSERT INTO link_previews (url, fetched_at, found, title, description, site_name,"
        " image_url) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (url) DO UPDATE SET"
        " fetched_at = excluded.fetched_at, found = excluded.found, title = excluded.title,"
        " description = excluded.description, site_name = excluded.site_name,"
        " image_url = excluded.image_url";
    const struct preview_page *g = p->page;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(p->url), SV_INT(p->now), SV_INT(g != NULL),
                               SV_STR(g ? g->title : ""), SV_STR(g ? g->description : ""),
                               SV_STR(g ? g->site_name : ""),
                               SV_STR(g && g->image[0] ? g->image : NULL)));
}

STORE_WRITE_AS(store_link_preview_put, struct store_link_preview, link_preview_put_at)

static int message_previews_set_at(struct store *db, struct store_message_previews *p)
{
    static const char *SQL_OPEN = "SELECT 1 FROM messages WHERE id = $1 AND (flags & 4) = 0";
    static const char *SQL =
        "INSERT INTO message_previews (message_id, channel_id, position, url, title, description,"
        " site_name, image_url) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        " ON CONFLICT (message_id, position) DO NOTHING";
    p->changes = 0;
    int open = store__exists(db, SQL_OPEN, SV_ARGS(SV_STR(p->message_id)));
    if (open <= 0)
        return open < 0 ? open : STORE_DONE; /* gone, or its author removed its previews */
    int rc = STORE_DONE;
    for (size_t i = 0; rc == STORE_DONE && i < p->n; i++) {
        const struct preview_page *g = &p->pages[i];
        rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(p->message_id), SV_STR(p->room), SV_INT((int64_t)i),
                                 SV_STR(p->urls[i]), SV_STR(g->title), SV_STR(g->description),
                                 SV_STR(g->site_name), SV_STR(g->image[0] ? g->image : NULL)));
        p->changes += rc == STORE_DONE ? store__changes(db) : 0;
    }
    return rc;
}

STORE_WRITE_AS(store_message_previews_set, struct store_message_previews, message_previews_set_at)

static int message_previews_clear_at(struct store *db, const char *mid)
{
    static const char *SQL = "DELETE FROM message_previews WHERE message_id = $1";
    static const char *SQL_FLAG = "UPDATE messages SET flags = flags | 4 WHERE id = $1";
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(mid)));
    return rc == STORE_DONE ? store__exec(db, SQL_FLAG, SV_ARGS(SV_STR(mid))) : rc;
}

static int message_previews_clear_job(struct store *db, void *arg)
{
    return message_previews_clear_at(db, arg);
}

int store_message_previews_clear(struct store_writer *w, const char *message_id)
{
    return store_write(w, message_previews_clear_job, (void *)message_id);
}

int store_server_link_previews(struct store *db, const char *sid)
{
    static const char *SQL = "SELECT link_previews FROM servers WHERE id = $1";
    int64_t v = store__number(db, SQL, sid);
    return v < 0 ? (int)v : v != 0;
}

/* The messages whose text may hold a link, by ID (borrowed), and the smallest and largest ID. */
static json_t *with_links(json_t *messages, const char **lo, const char **hi)
{
    json_t *by = json_object();
    size_t i;
    json_t *m;
    *lo = *hi = NULL;
    json_array_foreach(messages, i, m)
    {
        const char *id = json_string_value(json_object_get(m, "id"));
        const char *text = json_string_value(json_object_get(m, "content"));
        if (!id || !text || !strstr(text, "http"))
            continue;
        json_object_set(by, id, m);
        if (!*lo || strcmp(id, *lo) < 0)
            *lo = id;
        if (!*hi || strcmp(id, *hi) > 0)
            *hi = id;
    }
    return by;
}

int store__previews_attach(struct store *db, const char *room, json_t *messages)
{
    static const char *SQL =
        "SELECT message_id, url, title, description, site_name, image_url FROM message_previews"
        " WHERE channel_id = $1 AND message_id >= $2 AND message_id <= $3"
        " ORDER BY message_id, position";
    static const struct store_col COLS[] = {{"url", COL_TEXT},
                                            {"title", COL_TEXT},
                                            {"description", COL_TEXT},
                                            {"siteName", COL_TEXT},
                                            {"image", COL_TEXT}};
    const char *lo, *hi;
    json_t *by = with_links(messages, &lo, &hi);
    int rc = STORE_DONE;
    struct store_stmt *st =
        lo ? store__query(db, SQL, SV_ARGS(SV_STR(room), SV_STR(lo), SV_STR(hi))) : NULL;
    if (lo && !st)
        rc = STORE_ERR;
    while (st && (rc = store__step(st)) == STORE_ROW) {
        json_t *m = json_object_get(by, store__text(st, 0));
        if (m)
            json_array_append_new(json_object_get(m, "previews"),
                                  store__row_json(st, 1, STORE_COLS(COLS)));
    }
    if (st)
        store__finish(st);
    json_decref(by);
    return rc == STORE_ROW ? STORE_DONE : rc;
}
