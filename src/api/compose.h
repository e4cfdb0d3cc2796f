/*
 * Composing a message from a send or edit body: reading the fields, the final shape rules
 * (at least one of content/embeds/components; Components V2 excludes content and embeds),
 * mentions, and auto-moderation. Every failure answers (400 / 422) and returns -1.
 */
#ifndef PRACA_API_COMPOSE_H
#define PRACA_API_COMPOSE_H
#include <jansson.h>
#include <stdint.h>

#include "api/api.h"

struct access;
struct state_server;

#define MESSAGE_NONCE_MAX 64

/* A draft's JSON is the request's (api__at_end): nothing to release. */
struct draft {
    int content_set; /* present and not null */
    const char *content;
    int embeds_set; /* present and not null: embeds is the cleaned array */
    json_t *embeds; /* the request's */
    int components_set;
    json_t *components; /* the request's */
    int flags_set;
    int64_t flags;
    const char *reply_to_id; /* as sent; checked by the caller */
    const char *nonce;       /* a send's nonce (1–64 characters, or a number as text) or NULL */
    int enforce_nonce;       /* the same nonce from the same author makes one message a day */
    char nonce_text[24];     /* a number's text */
};

/* rich: embeds, components and flags are read (else ignored). base_flags: the flags in force
 * when the body does not set them (0 on send, the message's own on edit). */
int api__draft_read(struct api_call *c, json_t *body, int rich, int64_t base_flags,
                    struct draft *d);
/* The final message must have something in it (text, embeds, components or files) and respect
 * the V2 flag. */
int api__draft_check(struct api_call *c, const char *content, json_t *embeds, json_t *components,
                     int64_t flags, size_t files);

struct mentions_out {
    json_t *users; /* array of user IDs (the request's: api__at_end) */
    json_t *roles; /* array of role IDs (the request's) */
    int everyone;
    size_t total;
};
/* Resolves the mentions of content in server sid. -1 on a storage error (answered 500). */
int api__mentions(struct api_call *c, const struct state_server *srv, const char *content,
                  int allow_everyone, struct mentions_out *out);
/* 422 {automod: true} when the server's rules block this text. a is the author's access (it
 * tells whether the server has rules at all). */
int api__automod(struct api_call *c, const struct state_server *srv, const char *content,
                 json_t *embeds, size_t mentions);

#endif
