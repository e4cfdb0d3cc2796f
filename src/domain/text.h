/* Rules for text input with no I/O: UTF-8 character counts, usernames, trimming. */
#ifndef PRACA_DOMAIN_TEXT_H
#define PRACA_DOMAIN_TEXT_H
#include <stddef.h>

/* Number of Unicode code points in valid UTF-8 (jansson has already validated it). */
size_t rule_text_chars(const char *s, size_t len);
/* 1 when s is 2 to 32 of a-z 0-9 _ . (after folding to lowercase, which is done in place). */
int rule_text_username_fold(char *s, size_t len);
/* Trims ASCII whitespace from both ends: returns the new start and sets *len. */
const char *rule_text_trim(const char *s, size_t *len);
/* 1 when the text has a control character (other than tab/newline when allow_newlines). */
int rule_text_has_control(const char *s, size_t len, int allow_newlines);
/* Whether a name a person shows (a display name) may be used: no control characters (C0, DEL,
 * C1) and no format characters (Unicode's Cf: bidirectional overrides and isolates, zero-width
 * joiners and spaces, the soft hyphen, tags, the BOM …), which could make it read as another
 * name or reorder the text around it. s is UTF-8 (as JSON gives it). */
int rule_text_name_ok(const char *s, size_t len);
/* Whether s is an e-mail address as people write them: local@domain, at most 254 bytes, a local
 * part of 1–64 printable ASCII characters without spaces, quotes, brackets or separators, and a
 * domain of dot-separated labels (letters, digits, inner hyphens; two labels at least). out
 * (cap ≥ 255) gets it in lower case. 1, or 0. */
int rule_email_ok(const char *s, char *out, size_t cap);

/* A bot username made from an application name: lowercase ASCII letters and digits, other
 * characters folded into '_', then "_bot" (attempt 0) or "_<attempt>" — always 2 to 32 valid
 * username characters. out must hold 33 bytes. */
void rule_text_bot_username(const char *name, int attempt, char out[33]);

#endif
