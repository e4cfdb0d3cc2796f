/*
 * The interactions endpoint: signed JSON POSTs to an application's own HTTP server, made with
 * libcurl on the calling worker thread (3 s, no redirects, http and https only, private
 * addresses refused unless the operator allows them).
 */
#ifndef PRACA_API_ENDPOINT_H
#define PRACA_API_ENDPOINT_H
#include <stddef.h>
#include <stdint.h>

#define ENDPOINT_TIMEOUT_MS 3000
#define ENDPOINT_BODY_MAX   (1000 * 1000)

struct endpoint_result {
    long status;        /* the HTTP status; 0 when there was no answer */
    int64_t latency_ms; /* from the start of the request to the end of the answer */
    char *body;         /* the answer's body, NUL-terminated (owned); NULL when none */
    size_t body_len;
};

/* Call once at start, before any thread uses libcurl. */
int endpoint_global_init(void);
void endpoint_global_cleanup(void);

/* The signature headers' value for body at unix time ts: "sha256=" + hex HMAC-SHA256 of
 * "<ts>.<body>" with secret. out must hold 72 bytes. */
void endpoint_signature(const char *secret, int64_t ts, const char *body, size_t len, char out[72]);

/* POSTs body to url. Returns 0 when an answer came (any status), -1 otherwise (timeout,
 * refused address, connection error); out is filled either way. */
int endpoint_post(const char *url, const char *secret, const char *body, size_t len,
                  int allow_private, struct endpoint_result *out);
void endpoint_result_cleanup(struct endpoint_result *r);

#endif
