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

#endif
