/*
 * Link previews: after a person's message is in, the first few links of its text are read by
 * the server (through the outbound client: http(s) only, private addresses refused, a few
 * redirects each checked, the page's first 512 KB, 4 s; at most 4 pages of one site at once), or
 * taken from the cache of what each page said lately; what a page says of itself (OpenGraph,
 * Twitter cards, its title) is kept with the message, and the people who see it are told
 * (MESSAGE_PREVIEWS_UPDATE: live, people only, like reactions). The send never waits for any of
 * it. A preview's image is shown through the media proxy (api/media.c). The author may remove a
 * message's previews; `<https://…>` asks for none; a server may turn them off.
 */
#include "api/previews.h"

#include <http_parser.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/background.h"
#include "api/endpoint.h"
#include "api/events.h"
#include "api/place.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/workers.h"
#include "domain/link_previews.h"
#include "domain/message_rules.h"
#include "store/messages.h"
#include "store/previews.h"

/* One message's links, read one by one on the calls' thread and then together on a worker (twice
 * when a page without a preview of its own offers an oEmbed, read in a second round). */
struct preview_job {
    struct job job;
    struct api_service *svc;
    char sid[UUID_LEN + 1], room[UUID_LEN + 1], mid[UUID_LEN + 1], author[UUID_LEN + 1];
    struct preview_links links;
    struct {
        struct preview_job *job;
        int state;  /* CACHED, FETCHED, READ, NONE */
        int oembed; /* its second round (the answer is the oEmbed's JSON) */
        int found;
        struct preview_page page;
        struct endpoint_result r;
    } link[PREVIEW_LINKS_MAX];
    atomic_int waiting;
};

enum { NONE, CACHED, FETCHED, READ };

static void arrived(struct preview_job *j)
{
    if (atomic_fetch_sub(&j->waiting, 1) == 1)
        workers_submit(j->svc->workers, &j->job);
}

static void page_fetched(void *arg, int sent, struct endpoint_result *r)
{
    struct preview_job *j = *(struct preview_job **)arg;
    size_t i = (size_t)((char *)arg - (char *)&j->link[0]) / sizeof j->link[0];
    j->link[i].state = sent ? NONE : FETCHED;
    j->link[i].r = *r;
    arrived(j);
}

/* Asks for link i's page (or its oEmbed): 0, or -1 when the site or the client is busy. */
static int ask(struct preview_job *j, size_t i, const char *url)
{
    atomic_fetch_add(&j->waiting, 1);
    if (!api__endpoint_page(j->svc->endpoints, url, j->svc->cfg->allow_private_endpoints,
                            page_fetched, &j->link[i].job))
        return 0;
    j->link[i].state = NONE; /* no preview this time */
    atomic_fetch_sub(&j->waiting, 1);
    return -1;
}

/* What link i's answer said (a page that answered 200 with HTML, or its oEmbed's JSON): 1 when
 * the page says nothing itself but offers an oEmbed to ask next. */
static int read_answer(struct preview_job *j, size_t i)
{
    struct endpoint_result *r = &j->link[i].r;
    const char *type = r->content_type;
    int ok = r->status == 200 && r->body;
    if (j->link[i].oembed)
        j->link[i].found = ok && rule_preview_oembed(r->body, r->body_len, &j->link[i].page);
    else
        j->link[i].found =
            ok &&
            (!strncasecmp(type, "text/html", 9) || !strncasecmp(type, "application/xhtml", 17)) &&
            rule_preview_page(r->body, r->body_len, j->links.url[i], &j->link[i].page);
    api__endpoint_result_cleanup(r);
    j->link[i].state = READ;
    return !j->link[i].found && !j->link[i].oembed && j->link[i].page.oembed[0];
}

/* What each page read said is kept for the next message that links it. */
static void keep(struct preview_job *j, size_t i)
{
    struct store_link_preview put = {j->links.url[i], j->link[i].found ? &j->link[i].page : NULL,
                                     clock_now_ms()};
    if (store_link_preview_put(j->svc->writer, &put) < 0)
        log_error("previews: the preview of a page could not be kept");
}

/* Tells the people who see the message (as its author places it): they read its previews. */
static void tell(struct preview_job *j, struct store *db, json_t *previews)
{
    struct api_as_person a;
    api__as_person_begin(&a, j->svc, db, j->author);
    struct place p;
    if (!api__place_at(&a.c, j->sid, j->room, &p))
        api__event_people(&a.c, "MESSAGE_PREVIEWS_UPDATE", &p, j->mid,
                          json_pack("{s:s,s:s,s:s,s:O}", "serverId", j->sid, "channelId", p.cid,
                                    "messageId", j->mid, "previews", previews));
    api__as_person_end(&a);
}

static void previews_run(struct job *job, void *thread_ctx)
{
    struct preview_job *j = JOB_OF(job, struct preview_job, job);
    int again[PREVIEW_LINKS_MAX] = {0}, second = 0;
    for (size_t i = 0; i < j->links.n; i++)
        if (j->link[i].state == FETCHED)
            second |= again[i] = read_answer(j, i);
    if (second) { /* the oEmbeds asked for; this job runs again when they are in */
        atomic_store(&j->waiting, 1);
        for (size_t i = 0; i < j->links.n; i++)
            if (again[i]) {
                j->link[i].oembed = 1;
                ask(j, i, j->link[i].page.oembed);
            }
        arrived(j);
        return;
    }
    const char *urls[PREVIEW_LINKS_MAX];
    struct preview_page pages[PREVIEW_LINKS_MAX];
    size_t n = 0;
    for (size_t i = 0; i < j->links.n; i++) {
        if (j->link[i].state == READ || (j->link[i].state == NONE && j->link[i].oembed))
            keep(j, i);
        if (j->link[i].state != NONE && j->link[i].found) {
            urls[n] = j->links.url[i];
            pages[n++] = j->link[i].page;
        }
    }
    struct store_message_previews set = {j->mid, j->room, urls, pages, n, 0};
    if (n && store_message_previews_set(j->svc->writer, &set) < 0)
        log_error("previews: the previews of message %s could not be kept", j->mid);
    if (set.changes) {
        int rc;
        json_t *m = store_message_json(thread_ctx, j->mid, &rc);
        if (m)
            tell(j, thread_ctx, json_object_get(m, "previews"));
        json_decref(m);
    }
    store_read_release(thread_ctx);
    free(j);
}

void api__previews_start(struct api_call *c, const struct place *p, const char *mid,
                         const char *content)
{
    struct preview_links links;
    if (!content || !rule_preview_links(content, strlen(content), &links) ||
        store_server_link_previews(c->db, p->sid) != 1)
        return;
    struct preview_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->job.run = previews_run;
    j->svc = c->svc;
    j->links = links;
    snprintf(j->sid, sizeof j->sid, "%s", p->sid);
    snprintf(j->room, sizeof j->room, "%s", p->cid);
    snprintf(j->mid, sizeof j->mid, "%s", mid);
    snprintf(j->author, sizeof j->author, "%s", c->me.user_id);
    atomic_init(&j->waiting, 1); /* this start's own, given up last */
    int64_t now = clock_now_ms();
    for (size_t i = 0; i < links.n; i++) {
        j->link[i].job = j;
        int cached =
            store_link_preview_get(c->db, links.url[i], now, &j->link[i].found, &j->link[i].page);
        if (cached) {
            j->link[i].state = cached > 0 ? CACHED : NONE;
            continue;
        }
        ask(j, i, links.url[i]);
    }
    arrived(j);
}

/* DELETE …/messages/:mid/previews: the author takes them away, for good. */
static void previews_remove(struct api_call *c)
{
    struct place p;
    const char *mid;
    struct store_message_ref ref;
    if (api__place(c, &p) || api__place_message(c, &p, &mid, &ref))
        return;
    if (strcmp(ref.author_id, c->me.user_id)) {
        api__error(c, 403, "Só quem escreveu a mensagem pode tirar as prévias");
        return;
    }
    if (store_message_previews_clear(c->svc->writer, mid) < 0) {
        api__internal(c);
        return;
    }
    api__event_people(c, "MESSAGE_PREVIEWS_UPDATE", &p, mid,
                      json_pack("{s:s,s:s,s:s,s:[]}", "serverId", p.sid, "channelId", p.cid,
                                "messageId", mid, "previews"));
    api__ok(c);
}

const struct api_route api_preview_routes[] = {
    API_ROUTE(DELETE, "/api/servers/:sid/channels/:cid/messages/:mid/previews", previews_remove,
              API_ANY),
    {0},
};
