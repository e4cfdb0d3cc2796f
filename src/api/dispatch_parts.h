/* What the stages of a request share: the front door (dispatch.c), who calls (admit.c), the
 * writer lane (writer_lane.c), answers that wait (later.c) and the body's limits
 * (body_limits.c). */
#ifndef PRACA_API_DISPATCH_PARTS_H
#define PRACA_API_DISPATCH_PARTS_H

#include "api/api.h"
#include "bus/bus.h"
#include "store/people.h"

#define TOKEN_MAX 256 /* a credential longer than this is no credential */

/* Whether the path is under /api. */
int api__is_api_path(struct slice path);
/* The route of a request (HEAD as GET), its parameters filled. */
enum http_route_result api__route_of(struct api_service *a, struct http_request *req,
                                     const struct http_route **route);
/* The caller's credential: the bearer token, else the session cookie (*via_cookie 1; may be
 * NULL). An empty slice when there is neither. */
struct slice api__request_token(const struct http_request *req, int *via_cookie);

/* ---- admit.c ---- */
/* The request's credential, hashed into c->me.token_hash; answers 401 and returns -1 when it
 * sent none, or one too long to be a token. */
int api__credential(struct api_call *c);
/* Admits the holder of c->me.token_hash as the caller of a route for need; answers 401/403 and
 * returns -1 when it may not call it. */
int api__admit(struct api_call *c, enum api_auth need, const struct store_token_owner *owner);
/* The credential, its owner (memory, else the database) and api__admit; -1 answered. */
int api__authenticate(struct api_call *c, enum api_auth need);
/* On the writer: the caller admitted before the writer lane, while no identity has left memory
 * since (a revocation drops its identity in the commit that made it, before this request runs);
 * otherwise 0, and the handler's authenticate admits it again. */
int api__still_admitted(struct api_call *c);

/* ---- dispatch.c ---- */
/* The route's parameters, decoded into c->params; -1 when one is malformed. */
int api__decode_params(struct api_call *c, const struct http_request *req);
/* Handles the exchange's request on the calling lane; its route may be known (ex->route). */
void api__run(struct api_call *c, struct http_exchange *ex);
/* The answer leaves (no-store unless said otherwise; HEAD without a body). */
void api__answer(struct http_exchange *ex);
/* After the commit: its events published, or the answer made a 500 when it failed. */
void api__settle_after_commit(struct api_service *a, struct http_exchange *ex,
                              struct bus_held *events, int committed);
void api__answer_after_commit(struct api_service *a, struct http_exchange *ex,
                              struct bus_held *events, int committed);

/* ---- writer_lane.c ---- */
/* Sends the request to the writer lane (admitted and counted first); -1 when it could not, and
 * the caller runs it on a worker. */
int api__writer_lane(struct api_service *a, struct http_exchange *ex);

#endif
