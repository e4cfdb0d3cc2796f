/*
 * An export's file fetched from its link (libcurl, blocking: praca import is a command of its
 * own): http and https only, no proxy from the environment, every address connected to checked
 * (redirects included) so that an export cannot reach the machine's private network unless the
 * operator allows it, the bytes bounded as they arrive.
 */
#include "cli/import_fetch.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "domain/urls.h"

#define FETCH_TIMEOUT_MS 60000L
#define FETCH_CONNECT_MS 10000L

struct fetch {
    struct cli_import_fetch *item;
    int fd, allow_private;
    int64_t max, *budget;
    CURL *easy; /* while it runs */
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    struct fetch *f = arg;
    size_t len = size * n;
    if (f->item->got + (int64_t)len > f->max || (*f->budget >= 0 && (int64_t)len > *f->budget))
        return 0; /* past a bound: the transfer stops */
    if (*f->budget >= 0)
        *f->budget -= (int64_t)len;
    for (size_t done = 0; done < len;) {
        ssize_t w = write(f->fd, data + done, len - done);
        if (w <= 0)
            return 0;
        done += (size_t)w;
    }
    f->item->got += (int64_t)len;
    return len;
}

static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
    const struct fetch *f = arg;
    (void)purpose;
    if (!f->allow_private && rule_url_address_is_private((const struct sockaddr *)&a->addr))
        return CURL_SOCKET_BAD;
    return socket(a->family, a->socktype, a->protocol);
}

int cli_import_fetch_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static CURL *easy_for(struct fetch *f)
{
    CURL *e = curl_easy_init();
    if (!e)
        return NULL;
    curl_easy_setopt(e, CURLOPT_URL, f->item->url);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, (long)CLI_IMPORT_FETCH_REDIRECTS);
    curl_easy_setopt(e, CURLOPT_PROXY, "");
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, FETCH_TIMEOUT_MS);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, FETCH_CONNECT_MS);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "Praca-import");
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, f);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, f);
    curl_easy_setopt(e, CURLOPT_PRIVATE, f);
    return e;
}

/* The transfers that ended: their items told, their handles gone. */
static size_t take_done(CURLM *m)
{
    size_t ended = 0;
    int left;
    for (CURLMsg *msg; (msg = curl_multi_info_read(m, &left));) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        struct fetch *f;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&f);
        f->item->ok = msg->data.result == CURLE_OK;
        curl_multi_remove_handle(m, f->easy);
        curl_easy_cleanup(f->easy);
        f->easy = NULL;
        close(f->fd);
        ended++;
    }
    return ended;
}

int cli_import_fetch_all(struct cli_import_fetch *items, size_t n, int64_t max, int allow_private,
                         int64_t *budget)
{
    struct fetch *fetches = calloc(n ? n : 1, sizeof *fetches);
    CURLM *m = fetches ? curl_multi_init() : NULL;
    for (size_t i = 0; i < n; i++) {
        items[i].ok = 0;
        items[i].got = 0;
    }
    if (!m) {
        free(fetches);
        return -1;
    }
    size_t next = 0, active = 0;
    while (next < n || active) {
        for (; next < n && active < CLI_IMPORT_FETCH_AT_ONCE; next++) {
            struct fetch *f = &fetches[next];
            *f = (struct fetch){&items[next], -1, allow_private, max, budget, NULL};
            f->fd = open(items[next].path, O_WRONLY | O_TRUNC | O_CLOEXEC);
            f->easy = f->fd >= 0 ? easy_for(f) : NULL;
            if (f->easy && curl_multi_add_handle(m, f->easy) == CURLM_OK) {
                active++;
            } else {
                curl_easy_cleanup(f->easy);
                f->easy = NULL;
                if (f->fd >= 0)
                    close(f->fd);
            }
        }
        int running;
        if (curl_multi_perform(m, &running) != CURLM_OK)
            break;
        active -= take_done(m);
        /* wait only while some transfer still waits on the network */
        if (running && curl_multi_poll(m, NULL, 0, 1000, NULL) != CURLM_OK)
            break;
    }
    for (size_t i = 0; i < next; i++)
        if (fetches[i].easy) { /* left running by a failure of the multi handle */
            curl_multi_remove_handle(m, fetches[i].easy);
            curl_easy_cleanup(fetches[i].easy);
            close(fetches[i].fd);
        }
    curl_multi_cleanup(m);
    free(fetches);
    return 0;
}
