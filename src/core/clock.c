/* Time: see clock.h. Calendar math is done by hand so parsing never depends on the locale or TZ. */
#include "core/clock.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static _Atomic int64_t offset_ms;

int64_t clock_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + atomic_load(&offset_ms);
}

int64_t clock_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct timespec clock_deadline(int64_t ms)
{
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    int64_t ns = at.tv_nsec + (ms > 0 ? ms : 0) * 1000000;
    at.tv_sec += (time_t)(ns / 1000000000);
    at.tv_nsec = (long)(ns % 1000000000);
    return at;
}

int64_t clock_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void clock_advance_ms(int64_t delta)
{
    atomic_fetch_add(&offset_ms, delta);
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

void clock_format_iso(int64_t ms, char out[CLOCK_ISO_LEN + 1])
{
    int64_t secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
    int millis = (int)(ms - secs * 1000);
    int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    int64_t rem = secs - days * 86400;
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    if (y < 0 || y > 9999)
        y = y < 0 ? 0 : 9999;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (int)y, m, d,
             (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60), millis);
    memcpy(out, tmp, CLOCK_ISO_LEN);
    out[CLOCK_ISO_LEN] = '\0';
}

static int digits(const char *s, size_t len, size_t at, size_t n, int *out)
{
    if (at + n > len)
        return -1;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[at + i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    *out = v;
    return 0;
}

int clock_parse(const char *s, size_t len, int64_t *out_ms)
{
    int y, mo, d, h, mi, se, ms = 0;
    if (len < 19 || digits(s, len, 0, 4, &y) || s[4] != '-' || digits(s, len, 5, 2, &mo) ||
        s[7] != '-' || digits(s, len, 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
        digits(s, len, 11, 2, &h) || s[13] != ':' || digits(s, len, 14, 2, &mi) || s[16] != ':' ||
        digits(s, len, 17, 2, &se))
        return -1;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || se > 59)
        return -1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo == 2 && d == 29 && !leap)
        return -1;
    size_t i = 19;
    if (i < len && s[i] == '.') {
        i++;
        size_t start = i;
        int scale = 100;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            ms += (s[i] - '0') * scale;
            scale /= 10;
            i++;
        }
        if (i == start || i - start > 9)
            return -1;
    }
    int64_t offset_min = 0;
    if (i < len && s[i] == 'Z') {
        i++;
    } else if (i < len && (s[i] == '+' || s[i] == '-')) {
        int oh, om;
        if (digits(s, len, i + 1, 2, &oh) || i + 3 >= len || s[i + 3] != ':' ||
            digits(s, len, i + 4, 2, &om) || oh > 23 || om > 59)
            return -1;
        offset_min = (s[i] == '+' ? 1 : -1) * (oh * 60 + om);
        i += 6;
    } else if (s[10] == 'T') {
        return -1; /* ISO form needs its zone */
    }
    if (i != len)
        return -1;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - offset_min * 60;
    *out_ms = secs * 1000 + ms;
    return 0;
}
