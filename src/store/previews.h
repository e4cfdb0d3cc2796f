/*
 * Link previews in the database: the cache of what each page says of itself (link_previews) and
 * the previews each message shows (message_previews).
 */
#ifndef PRACA_STORE_PREVIEWS_H
#define PRACA_STORE_PREVIEWS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "domain/link_previews.h"
#include "store/db.h"
#include "store/writer.h"

#define PREVIEW_FOUND_TTL_MS   (3600 * 1000LL)    /* a page's preview is read again after an hour */
#define PREVIEW_MISSING_TTL_MS (10 * 60 * 1000LL) /* one without, after ten minutes */

/* url's cached preview when it is fresh at now: 1 with *found (and page when found), 0 when it is
 * to be read, < 0 on error. */
int store_link_preview_get(struct store *db, const char *url, int64_t now, int *found,
                           struct preview_page *page);
/* Keeps what url said (page NULL: nothing to show). */
struct store_link_preview {
    const char *url;
    const struct preview_page *page;
    int64_t now;
};
int store_link_preview_put(struct store_writer *w, struct store_link_preview *p);

/* Message mid (in room) shows these previews, unless its author removed them meanwhile or it is
 * gone: changes 1 when they were kept. */
struct store_message_previews {
    const char *message_id, *room;
    const char *const *urls;
    const struct preview_page *pages;
    size_t n;
    int64_t changes;
};
int store_message_previews_set(struct store_writer *w, struct store_message_previews *p);
/* The author removes them: they go, and none come back (MSG_FLAG_NO_PREVIEWS). */
int store_message_previews_clear(struct store_writer *w, const char *message_id);
/* Whether server sid shows link previews: 1, 0, < 0 on error. */
int store_server_link_previews(struct store *db, const char *sid);

/* Fills in `previews` of those of messages (of room) whose text has a link:
 * [{url, title, description, siteName, image}]. STORE_DONE or an error. */
int store__previews_attach(struct store *db, const char *room, json_t *messages);

#endif
