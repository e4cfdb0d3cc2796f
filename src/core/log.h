/*
 * Leveled logging to stderr, one line per call, safe from any thread. Never log secrets.
 *
 * Lines are text (`TIME LEVEL message`) or, with log_set_json, one JSON object per line
 * ({"time", "level", "msg"} or, for log_fields, "kind" and the fields), for log collectors.
 */
#ifndef PRACA_CORE_LOG_H
#define PRACA_CORE_LOG_H
#include <stddef.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

void log_set_level(enum log_level level);
void log_set_json(int on);
void log_write(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A named value of a structured line: text (str, NULL = null) or a number (when is_num). */
struct log_field {
    const char *key;
    const char *str;
    double num;
    int is_num;
};
#define LOG_STR(k, v) ((struct log_field){(k), (v), 0, 0})
#define LOG_NUM(k, v) ((struct log_field){(k), NULL, (double)(v), 1})

/* One structured line: `TIME LEVEL kind key=value …` as text (characters outside printable
 * ASCII and spaces shown as '?'), or a JSON object. */
void log_fields(enum log_level level, const char *kind, const struct log_field *f, size_t n);

#define log_debug(...) log_write(LOG_DEBUG, __VA_ARGS__)
#define log_info(...)  log_write(LOG_INFO, __VA_ARGS__)
#define log_warn(...)  log_write(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_write(LOG_ERROR, __VA_ARGS__)

#endif
