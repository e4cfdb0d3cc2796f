/* Interactions endpoint: see endpoint.h. */
#include "api/endpoint.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/urls.h"

int endpoint_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void endpoint_global_cleanup(void)
{
    curl_global_cleanup();
}

void endpoint_signature(const char *secret, int64_t ts, const char *body, size_t len, char out[72])
{
    struct buf msg;
    buf_init(&msg, len + 32);
    buf_appendf(&msg, "%lld.", (long long)ts);
    buf_append(&msg, body, len);
    unsigned char mac[32] = {0};
    crypto_hmac("SHA256", secret, strlen(secret), msg.data, msg.len, mac);
    buf_cleanup(&msg);
    memcpy(out, "sha256=", 7);
    crypto_hex(mac, sizeof mac, out + 7);
}

struct transfer {
    struct buf body;
    int allow_private;
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    struct transfer *t = arg;
    size_t len = size * n;
    if (buf_append(&t->body, data, len) < 0)
        return 0; /* over ENDPOINT_BODY_MAX: stops the transfer */
    return len;
}

/* Checked on the resolved address, so a public name cannot lead to a private address. */
static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
    struct transfer *t = arg;
    (void)purpose;
    if (!t->allow_private) {
        char host[INET6_ADDRSTRLEN] = "";
        const void *ip = a->family == AF_INET
                             ? (const void *)&((struct sockaddr_in *)&a->addr)->sin_addr
                             : (const void *)&((struct sockaddr_in6 *)&a->addr)->sin6_addr;
        if ((a->family != AF_INET && a->family != AF_INET6) ||
            !inet_ntop(a->family, ip, host, sizeof host) || url_host_is_private(host, strlen(host)))
            return CURL_SOCKET_BAD;
    }
    return socket(a->family, a->socktype, a->protocol);
}

int endpoint_post(const char *url, const char *secret, const char *body, size_t len,
                  int allow_private, struct endpoint_result *out)
{
    memset(out, 0, sizeof *out);
    CURL *curl = curl_easy_init();
    if (!curl)
        return -1;
    struct transfer t = {.allow_private = allow_private};
    buf_init(&t.body, ENDPOINT_BODY_MAX);
    int64_t ts = clock_now_ms() / 1000;
    char signature[72], header_ts[64], header_sig[96];
    endpoint_signature(secret, ts, body, len, signature);
    snprintf(header_ts, sizeof header_ts, "X-Signature-Timestamp: %lld", (long long)ts);
    snprintf(header_sig, sizeof header_sig, "X-Signature-256: %s", signature);
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    headers = curl_slist_append(headers, header_ts);
    headers = curl_slist_append(headers, header_sig);
    headers = curl_slist_append(headers, "User-Agent: Praca-Interactions/1");
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    /* Never through a proxy from the environment (http_proxy …): the address checked for
     * privacy must be the endpoint's own. */
    curl_easy_setopt(curl, CURLOPT_PROXY, "");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)ENDPOINT_TIMEOUT_MS);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &t);
    int64_t started = clock_mono_ms();
    CURLcode rc = curl_easy_perform(curl);
    out->latency_ms = clock_mono_ms() - started;
    if (rc == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
        out->body = buf_detach(&t.body, &out->body_len); /* NUL-terminated, or NULL */
    }
    buf_cleanup(&t.body);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return rc == CURLE_OK ? 0 : -1;
}

void endpoint_result_cleanup(struct endpoint_result *r)
{
    free(r->body);
    r->body = NULL;
}
