/*
 * An export's file fetched from its link (libcurl, blocking: praca import is a command of its
 * own): http and https only, no proxy from the environment, every address connected to checked
 * (redirects included) so that an export cannot reach the machine's private network unless the
 * operator allows it, the bytes bounded as they arrive.
 */
#include "cli/import_fetch.h"

#include <curl/curl.h>
#include <unistd.h>

#include "domain/urls.h"

#define FETCH_TIMEOUT_MS 60000L
#define FETCH_CONNECT_MS 10000L

struct fetch {
    int fd, allow_private;
    int64_t max, got;
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    struct fetch *f = arg;
    size_t len = size * n;
    if (f->got + (int64_t)len > f->max)
        return 0; /* past the bound: the transfer stops */
    for (size_t done = 0; done < len;) {
        ssize_t w = write(f->fd, data + done, len - done);
        if (w <= 0)
            return 0;
        done += (size_t)w;
    }
    f->got += (int64_t)len;
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

int cli_import_fetch(const char *url, int fd, int64_t max, int allow_private, int64_t *got)
{
    struct fetch f = {fd, allow_private, max, 0};
    CURL *e = curl_easy_init();
    if (!e)
        return -1;
    curl_easy_setopt(e, CURLOPT_URL, url);
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
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &f);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, &f);
    CURLcode rc = curl_easy_perform(e);
    curl_easy_cleanup(e);
    *got = f.got;
    return rc == CURLE_OK ? 0 : -1;
}
