/*
 * The installable app: its web app manifest (/manifest.webmanifest), the favicon (/favicon.ico)
 * and the service worker (/sw.js) that keeps the app's shell and static files by version, so
 * that /app opens without a network and a new version replaces the old one cleanly. The
 * worker's text is static/sw.js with this build's version and file list set in; the version is
 * a hash of every file the pages are made of, so it changes exactly when they do.
 */
#ifndef PRACA_WEB_PWA_H
#define PRACA_WEB_PWA_H
#include <stddef.h>

#include "core/embed.h"
#include "http/server.h"

/* Answers /sw.js, /favicon.ico and /manifest.webmanifest: 1 when it answered, else 0. */
int web__pwa_handle(struct http_exchange *ex);
/* 1 for a file served only at a path of its own (not under /static/). */
int web__pwa_own(const struct embedded_file *f);
/* The version the worker carries: the pages' hash, or (tests) what was set. */
const char *web__pwa_version(void);
/* Tests only: a version other than the pages' hash, to try an update; call before serving. */
void web_pwa_set_version(const char *version);

/* What pages.c shares with it. */
void web__serve(struct http_exchange *ex, const struct embedded_file *f, int page);
void web__answer(struct http_exchange *ex, int status, const char *type, const char *body,
                 size_t len);
void web__security_headers(struct http_response *res);

#endif
