/*
 * The web pages (sign in, consent, developer portal) and their static files, compiled into
 * the binary and served from memory on the I/O thread. Every page carries a strict Content
 * Security Policy (scripts from this origin only, no framing); static files carry an ETag and
 * are revalidated.
 */
#ifndef PRACA_WEB_PAGES_H
#define PRACA_WEB_PAGES_H

#include "http/server.h"

/* Answers requests for pages and /static/ files: 1 when it answered, 0 for other paths. */
int web_handle(struct http_exchange *ex);
/* Lets pages connect to url's origin too (the SFU's WebSocket), besides their own; call once
 * before serving. 0, or -1 when url has no origin or the policy would not hold it. */
int web_pages_connect_also(const char *url);

#endif
