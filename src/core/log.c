/* Logging: see log.h. */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/clock.h"

static enum log_level min_level = LOG_INFO;

void log_set_level(enum log_level level)
{
    min_level = level;
}

void log_write(enum log_level level, const char *fmt, ...)
{
    static const char *names[] = {"debug", "info", "warn", "error"};
    if (level < min_level)
        return;
    char when[CLOCK_ISO_LEN + 1];
    clock_format_iso(clock_now_ms(), when);
    flockfile(stderr);
    fprintf(stderr, "%s %s ", when, names[level]);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    funlockfile(stderr);
}
