/* Logging: see log.h. */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"

#define LINE_MAX_BYTES 16384 /* a 2 KiB message escaped 6 times over still fits */
#define MSG_MAX_BYTES  2048

static enum log_level min_level = LOG_INFO;
static int as_json;
static const char *const NAMES[] = {"debug", "info", "warn", "error"};

void log_set_level(enum log_level level)
{
    min_level = level;
}

void log_set_json(int on)
{
    as_json = on;
}

/* A bounded line being built; text past the end is cut. */
struct line {
    char data[LINE_MAX_BYTES];
    size_t len;
};

static void put(struct line *l, const char *s, size_t n)
{
    size_t room = sizeof l->data - 2 - l->len; /* the end of line always fits */
    if (n > room)
        n = room;
    memcpy(l->data + l->len, s, n);
    l->len += n;
}

static void puts_(struct line *l, const char *s)
{
    put(l, s, strlen(s));
}

/* A JSON string: control characters escaped; other bytes as they are. */
static void put_json_string(struct line *l, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    put(l, "\"", 1);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            char esc[2] = {'\\', (char)ch};
            put(l, esc, 2);
        } else if (ch < 0x20) {
            char esc[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
            put(l, esc, 6);
        } else {
            put(l, (const char *)&ch, 1);
        }
    }
    put(l, "\"", 1);
}

/* A text-mode value: one word of printable ASCII. */
static void put_word(struct line *l, const char *s)
{
    for (; *s; s++) {
        char ch = *s > ' ' && *s < 0x7f ? *s : '?';
        put(l, &ch, 1);
    }
}

static void put_number(struct line *l, double v)
{
    char num[32];
    int n = snprintf(num, sizeof num, "%.*f", v == (double)(long long)v ? 0 : 3, v);
    put(l, num, (size_t)n);
}

static void begin(struct line *l, enum log_level level)
{
    char when[CLOCK_ISO_LEN + 1];
    clock_format_iso(clock_now_ms(), when);
    l->len = 0;
    if (as_json) {
        puts_(l, "{\"time\":\"");
        puts_(l, when);
        puts_(l, "\",\"level\":\"");
        puts_(l, NAMES[level]);
        puts_(l, "\"");
    } else {
        puts_(l, when);
        puts_(l, " ");
        puts_(l, NAMES[level]);
        puts_(l, " ");
    }
}

/* One write of the whole line, so lines from several threads never interleave. */
static void emit(struct line *l)
{
    if (as_json)
        l->data[l->len++] = '}';
    l->data[l->len++] = '\n';
    fwrite(l->data, 1, l->len, stderr);
}

void log_write(enum log_level level, const char *fmt, ...)
{
    if (level < min_level)
        return;
    char msg[MSG_MAX_BYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct line l;
    begin(&l, level);
    if (as_json) {
        puts_(&l, ",\"msg\":");
        put_json_string(&l, msg);
    } else {
        puts_(&l, msg);
    }
    emit(&l);
}

void log_fields(enum log_level level, const char *kind, const struct log_field *f, size_t n)
{
    if (level < min_level)
        return;
    struct line l;
    begin(&l, level);
    if (as_json) {
        puts_(&l, ",\"kind\":");
        put_json_string(&l, kind);
    } else {
        puts_(&l, kind);
    }
    for (size_t i = 0; i < n; i++) {
        if (as_json) {
            puts_(&l, ",");
            put_json_string(&l, f[i].key);
            puts_(&l, ":");
        } else {
            puts_(&l, " ");
            puts_(&l, f[i].key);
            puts_(&l, "=");
        }
        if (f[i].is_num)
            put_number(&l, f[i].num);
        else if (!f[i].str)
            puts_(&l, as_json ? "null" : "-");
        else if (as_json)
            put_json_string(&l, f[i].str);
        else
            put_word(&l, f[i].str);
    }
    emit(&l);
}
