/* Idempotency keys: see idempotency.h. */
#include "api/idempotency.h"

#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/reply.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "http/request.h"
#include "store/idempotency.h"

/* Answers above this size are not kept: the key is freed instead. */
#define KEPT_BODY_MAX (1024 * 1024)

static int mutation(int method)
{
    return method == HTTP_POST || method == HTTP_PUT || method == HTTP_PATCH ||
           method == HTTP_DELETE;
}

/* SHA-256 of the method, the target and the body: what "the same request" means. */
static void request_hash(const struct http_request *req, char out[65])
{
    struct buf b;
    buf_init(&b, req->body.len + req->target.len + 16);
    const char *method = http_method_str((enum http_method)req->method);
    if (buf_append_str(&b, method) || buf_append(&b, " ", 1) ||
        buf_append(&b, req->target.ptr, req->target.len) || buf_append(&b, "\n", 1) ||
        buf_append(&b, req->body.data, req->body.len)) {
        crypto_sha256_hex("", 0, out); /* out of memory: no request will match it */
        out[0] = 'x';
    } else {
        crypto_sha256_hex(b.data, b.len, out);
    }
    buf_cleanup(&b);
}

static int key_ok(struct slice k)
{
    if (!k.len || k.len > IDEMPOTENCY_KEY_MAX)
        return 0;
    for (size_t i = 0; i < k.len; i++)
        if (k.ptr[i] <= ' ' || k.ptr[i] > '~')
            return 0;
    return 1;
}

static int replay(struct api_call *c, struct store_idempotency *kept)
{
    char *body = kept->body;
    kept->body = NULL;
    c->answered = 1;
    http_response_add_header(c->res, "Idempotent-Replayed", "true");
    http_response_set(c->res, kept->status, "application/json; charset=utf-8", body,
                      kept->body_len);
    return 1;
}

int api__idempotency_begin(struct api_call *c, struct api_idempotency *id)
{
    memset(id, 0, sizeof *id);
    struct slice k = http_request_header(c->req, "idempotency-key");
    /* Uploads are left out (their bytes are on disk, not in the request): a send's nonce is
     * the way to make one of them once. */
    if (!k.ptr || !mutation(c->req->method) || !c->me.user_id[0] || c->req->upload)
        return 0;
    if (!key_ok(k)) {
        api__bad(c, "Idempotency-Key", "use de 1 a 64 caracteres visíveis (ASCII)");
        return 1;
    }
    memcpy(id->key, k.ptr, k.len);
    id->key[k.len] = 0;
    request_hash(c->req, id->request_hash);
    struct store_idempotency_write w = {.caller = c->me.user_id,
                                        .key = id->key,
                                        .request_hash = id->request_hash,
                                        .now = clock_now_ms()};
    struct store_idempotency kept;
    for (int tries = 0; tries < 2; tries++) {
        int found = store_idempotency_find(c->db, c->me.user_id, id->key, w.now, &kept);
        if (found < 0) {
            api__internal(c);
            return 1;
        }
        if (found) {
            int same = !strcmp(kept.request_hash, id->request_hash);
            if (same && kept.status)
                return replay(c, &kept); /* the body goes to the answer */
            free(kept.body);
            api__error(
                c, 409,
                same ? "Um pedido com esta Idempotency-Key ainda está em andamento"
                     : "Idempotency-Key já usada com outro pedido (método, caminho ou corpo)");
            return 1;
        }
        /* On the writer lane the reservation is part of the request's own transaction. */
        int rc = c->held ? store_idempotency_reserve_at(c->db, &w)
                         : store_idempotency_reserve(c->svc->writer, &w);
        if (rc == STORE_DONE) {
            id->reserved = 1;
            return 0;
        }
        if (rc != STORE_TAKEN) {
            api__internal(c);
            return 1;
        }
        /* Another node reserved it a moment ago: read what it holds. */
    }
    api__error(c, 409, "Um pedido com esta Idempotency-Key ainda está em andamento");
    return 1;
}

void api__idempotency_end(struct api_call *c, struct api_idempotency *id)
{
    if (!id->reserved)
        return;
    /* An answer that comes later is not kept (the exchange may be gone): the key is freed. */
    const struct http_response *res = c->later ? NULL : c->res;
    int keep = res && res->status < 500 && !res->has_file && res->body_len <= KEPT_BODY_MAX;
    struct store_idempotency_write w = {.caller = c->me.user_id,
                                        .key = id->key,
                                        .request_hash = id->request_hash,
                                        .status = keep ? res->status : 0,
                                        .body = keep ? res->body : NULL,
                                        .body_len = keep ? res->body_len : 0,
                                        .now = clock_now_ms()};
    if (c->held)
        store_idempotency_settle_at(c->db, &w);
    else
        store_idempotency_settle(c->svc->writer, &w);
}
