/*
 * Incoming-webhook bodies in other services' shapes, turned into a Praça send body ({content,
 * embeds}) with no I/O: Slack's incoming-webhook JSON and GitHub's event payloads. The result
 * still goes through the message rules (domain/message_rules.h) like any send.
 */
#ifndef PRACA_DOMAIN_WEBHOOK_FORMATS_H
#define PRACA_DOMAIN_WEBHOOK_FORMATS_H
#include <jansson.h>

#include "domain/json_rules.h"

#define WEBHOOK_NAME_MAX 80

/* A webhook's name or a post's username: 1–80 characters, no control characters, no spaces at
 * the ends. 0, or -1 with the reason in err (at path). */
int rule_webhook_name(json_t *name, const char *path, struct rule_error *err);

/* Slack: text (mrkdwn), blocks (header, section with text and fields, context, divider, image),
 * legacy attachments (color, pretext, title, title_link, text, fields, footer), username,
 * icon_url. NULL with err when nothing could be read. */
json_t *rule_webhook_from_slack(json_t *slack, struct rule_error *err);

/* GitHub: event (the X-GitHub-Event header) push, pull_request, issues, issue_comment, release,
 * workflow_run, ping. Returns NULL with *ignored set for an event or action it does not show
 * (answered 204, as Discord does), NULL with err for a payload that is not GitHub's. */
json_t *rule_webhook_from_github(const char *event, json_t *payload, int *ignored,
                                 struct rule_error *err);

/* Slack's mrkdwn as Markdown: *bold*, ~strike~, <url|label>, <url>, <@U…>/<!here> left out. */
char *rule_webhook_mrkdwn(const char *text);

#endif
