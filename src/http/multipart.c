/*
 * multipart/form-data parsing: see multipart.h.
 *
 * The delimiter is "\r\n--" boundary. Its first byte, '\r', appears nowhere else in it (a
 * boundary's characters exclude CR), so a failed partial match can only restart on a '\r':
 * matching needs no table, and the bytes of a failed match are the delimiter's own prefix. The
 * first boundary may open the body without a CRLF before it: matching starts as if one came.
 */
#include "http/multipart.h"

#include <string.h>

enum state {
    S_PREAMBLE,
    S_AFTER_DELIM, /* "--" ends the body; padding then CRLF opens a part */
    S_DASH,        /* one '-' seen after a delimiter */
    S_LF,          /* the CR after a delimiter seen */
    S_HEAD,
    S_DATA,
    S_EPILOGUE,
};

static int lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
}

static int prefix_nocase(const char *p, size_t len, const char *word)
{
    size_t n = strlen(word);
    if (len < n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)p[i]) != word[i])
            return 0;
    return 1;
}

static int bchar(int ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           strchr("'()+_,-./:=? ", ch) != NULL;
}

/* ---- parameters of a header value: `type; key=value; key="quoted"` ---- */

struct cursor {
    const char *p, *end;
};

static void skip_space(struct cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

static int tchar(int ch)
{
    return ch > 32 && ch < 127 && !strchr("()<>@,;:\\\"/[]?={}", ch);
}

/* Reads a token or a quoted string into out (cap bytes); -1 when malformed or too long. */
static int read_value(struct cursor *c, char *out, size_t cap)
{
    size_t n = 0;
    if (c->p < c->end && *c->p == '"') {
        c->p++;
        for (;;) {
            if (c->p >= c->end)
                return -1;
            char ch = *c->p++;
            if (ch == '"')
                break;
            if (ch == '\\') {
                if (c->p >= c->end)
                    return -1;
                ch = *c->p++;
            }
            if (n + 1 < cap) /* longer than kept: the rest is dropped (a name is cut anyway) */
                out[n++] = ch;
        }
    } else {
        while (c->p < c->end && tchar((unsigned char)*c->p)) {
            if (n + 1 >= cap)
                return -1;
            out[n++] = *c->p++;
        }
        if (!n)
            return -1;
    }
    out[n] = '\0';
    return 0;
}

/* Finds parameter `key` (lowercase) after the first `;` of value; 1 found, 0 not, -1 bad. */
static int header_param(struct slice value, const char *key, char *out, size_t cap)
{
    struct cursor c = {value.ptr, value.ptr + value.len};
    int found = 0;
    while (c.p < c.end && *c.p != ';')
        c.p++;
    while (c.p < c.end) {
        c.p++; /* the ';' */
        skip_space(&c);
        const char *k = c.p;
        while (c.p < c.end && tchar((unsigned char)*c.p))
            c.p++;
        size_t klen = (size_t)(c.p - k);
        skip_space(&c);
        if (!klen || c.p >= c.end || *c.p != '=')
            return -1;
        c.p++;
        skip_space(&c);
        char tmp[256];
        char *dst = !found && klen == strlen(key) && prefix_nocase(k, klen, key) ? out : tmp;
        if (read_value(&c, dst, dst == out ? cap : sizeof tmp))
            return -1;
        found |= dst == out;
        skip_space(&c);
        if (c.p < c.end && *c.p != ';')
            return -1;
    }
    return found;
}

static struct slice trim(const char *p, size_t len)
{
    while (len && (*p == ' ' || *p == '\t'))
        p++, len--;
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
        len--;
    return (struct slice){p, len};
}

/* The part's header block, without its final empty line. */
static int read_part_head(struct http_multipart *mp)
{
    struct http_multipart_part *part = &mp->part;
    memset(part, 0, sizeof *part);
    int disposition = 0;
    const char *p = mp->head, *end = mp->head + mp->head_len;
    while (p < end) {
        const char *eol = p;
        while (eol + 1 < end && !(eol[0] == '\r' && eol[1] == '\n'))
            eol++;
        if (eol + 1 >= end)
            eol = end;
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon)
            return HTTP_MULTIPART_EMALFORMED;
        struct slice name = trim(p, (size_t)(colon - p));
        struct slice value = trim(colon + 1, (size_t)(eol - colon - 1));
        if (slice_eq_nocase(name, "content-disposition")) {
            if (disposition++ || !prefix_nocase(value.ptr, value.len, "form-data") ||
                (value.len > 9 && value.ptr[9] != ';' && value.ptr[9] != ' '))
                return HTTP_MULTIPART_EMALFORMED;
            if (header_param(value, "name", part->name, sizeof part->name) != 1)
                return HTTP_MULTIPART_EMALFORMED;
            int f = header_param(value, "filename", part->filename, sizeof part->filename);
            if (f < 0)
                return HTTP_MULTIPART_EMALFORMED;
            part->has_filename = f;
        } else if (slice_eq_nocase(name, "content-type")) {
            if (slice_copy(value, part->content_type, sizeof part->content_type))
                return HTTP_MULTIPART_EMALFORMED;
        }
        p = eol + 2;
    }
    return disposition ? 0 : HTTP_MULTIPART_EMALFORMED;
}

int http_multipart_init(struct http_multipart *mp, struct slice content_type,
                        const struct http_multipart_callbacks *cb, void *user)
{
    memset(mp, 0, sizeof *mp);
    mp->cb = cb;
    mp->user = user;
    struct slice type = trim(content_type.ptr, content_type.len);
    if (!prefix_nocase(type.ptr, type.len, "multipart/form-data"))
        return mp->result = HTTP_MULTIPART_EMALFORMED;
    char boundary[HTTP_MULTIPART_BOUNDARY_MAX + 2];
    if (header_param(type, "boundary", boundary, sizeof boundary) != 1)
        return mp->result = HTTP_MULTIPART_EMALFORMED;
    size_t n = strlen(boundary);
    if (!n || n > HTTP_MULTIPART_BOUNDARY_MAX || boundary[n - 1] == ' ')
        return mp->result = HTTP_MULTIPART_EMALFORMED;
    for (size_t i = 0; i < n; i++)
        if (!bchar((unsigned char)boundary[i]))
            return mp->result = HTTP_MULTIPART_EMALFORMED;
    memcpy(mp->delim, "\r\n--", 4);
    memcpy(mp->delim + 4, boundary, n);
    mp->delim_len = 4 + n;
    mp->matched = 2; /* the body may open with the boundary itself */
    mp->state = S_PREAMBLE;
    return 0;
}

static int emit(struct http_multipart *mp, const char *p, size_t len)
{
    return len ? mp->cb->data(mp->user, p, len) : 0;
}

/* Scans data for the delimiter; in S_DATA the bytes before it are the part's. Returns how many
 * bytes were used (all, or up to the delimiter's end), or sets mp->result. */
static size_t scan(struct http_multipart *mp, const char *data, size_t len)
{
    int deliver = mp->state == S_DATA;
    size_t i = 0;
    while (i < len) {
        if (mp->matched == 0) {
            const char *cr = memchr(data + i, '\r', len - i);
            size_t upto = cr ? (size_t)(cr - data) : len;
            if (deliver && (mp->result = emit(mp, data + i, upto - i)))
                return len;
            i = upto;
            if (cr) {
                mp->matched = 1;
                i++;
            }
            continue;
        }
        if (data[i] == mp->delim[mp->matched]) {
            i++;
            if (++mp->matched == mp->delim_len) {
                mp->matched = 0;
                if (deliver && (mp->result = mp->cb->end(mp->user)))
                    return len;
                mp->state = S_AFTER_DELIM;
                return i;
            }
            continue;
        }
        /* A failed match: what matched was data after all. */
        if (deliver && (mp->result = emit(mp, mp->delim, mp->matched)))
            return len;
        mp->matched = 0;
    }
    return i;
}

static int head_byte(struct http_multipart *mp, char ch)
{
    if (mp->head_len == sizeof mp->head)
        return HTTP_MULTIPART_EHEAD;
    mp->head[mp->head_len++] = ch;
    size_t n = mp->head_len;
    int done = (n == 2 && !memcmp(mp->head, "\r\n", 2)) ||
               (n >= 4 && !memcmp(mp->head + n - 4, "\r\n\r\n", 4));
    if (!done)
        return 0;
    mp->head_len = n == 2 ? 0 : n - 4;
    int rc = read_part_head(mp);
    if (rc)
        return rc;
    mp->head_len = 0;
    mp->state = S_DATA;
    return mp->cb->begin(mp->user, &mp->part);
}

int http_multipart_feed(struct http_multipart *mp, const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && !mp->result) {
        char ch = data[i];
        switch (mp->state) {
        case S_PREAMBLE:
        case S_DATA:
            i += scan(mp, data + i, len - i);
            break;
        case S_AFTER_DELIM:
            i++;
            if (ch == '-')
                mp->state = S_DASH;
            else if (ch == '\r')
                mp->state = S_LF;
            else if (ch != ' ' && ch != '\t')
                mp->result = HTTP_MULTIPART_EMALFORMED;
            break;
        case S_DASH:
            i++;
            if (ch == '-')
                mp->state = S_EPILOGUE;
            else
                mp->result = HTTP_MULTIPART_EMALFORMED;
            break;
        case S_LF:
            i++;
            if (ch == '\n')
                mp->state = S_HEAD;
            else
                mp->result = HTTP_MULTIPART_EMALFORMED;
            break;
        case S_HEAD:
            i++;
            mp->result = head_byte(mp, ch);
            break;
        case S_EPILOGUE:
            i = len;
            break;
        }
    }
    return mp->result;
}

int http_multipart_finish(const struct http_multipart *mp)
{
    if (mp->result)
        return mp->result;
    return mp->state == S_EPILOGUE ? 0 : HTTP_MULTIPART_EMALFORMED;
}
