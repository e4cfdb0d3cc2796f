/* Engine.IO packets: see packet.h. */
#include "engineio/packet.h"

#include <string.h>

#include "core/crypto.h"

int eio__decode_text(const char *s, size_t len, struct eio_packet *out)
{
    if (len == 0 || s[0] < '0' || s[0] > '6')
        return EIO_EDECODE;
    out->type = (enum eio_type)(s[0] - '0');
    out->binary = 0;
    out->data = s + 1;
    out->len = len - 1;
    return EIO_OK;
}

int eio__decode_payload(const char *s, size_t len, unsigned char *scratch,
                        int (*fn)(void *user, const struct eio_packet *p), void *user)
{
    size_t i = 0;
    if (len == 0)
        return EIO_EDECODE;
    while (i <= len) {
        const char *end = memchr(s + i, EIO_RECORD_SEPARATOR, len - i);
        size_t n = end ? (size_t)(end - (s + i)) : len - i;
        struct eio_packet p;
        if (n > 0 && s[i] == 'b') {
            int k = crypto_base64_decode(s + i + 1, n - 1, scratch, len);
            if (k < 0)
                return EIO_EDECODE;
            p = (struct eio_packet){EIO_MESSAGE, 1, (const char *)scratch, (size_t)k};
        } else if (eio__decode_text(s + i, n, &p)) {
            return EIO_EDECODE;
        }
        if (fn(user, &p))
            return EIO_EDECODE;
        if (!end)
            break;
        i += n + 1;
    }
    return EIO_OK;
}

int eio__encode_text(struct buf *out, enum eio_type type, const char *data, size_t len)
{
    char digit = (char)('0' + type);
    int rc = buf_append(out, &digit, 1);
    return rc ? rc : buf_append(out, data, len);
}

int eio__encode_polling(struct buf *out, const struct eio_packet *p)
{
    if (!p->binary)
        return eio__encode_text(out, p->type, p->data, p->len);
    size_t need = 4 * ((p->len + 2) / 3) + 2;
    int rc = buf_append(out, "b", 1);
    if (rc)
        return rc;
    size_t at = out->len;
    /* Reserve, then write base64 in place. */
    char zero[64] = {0};
    for (size_t left = need; left; left -= left > sizeof zero ? sizeof zero : left)
        if ((rc = buf_append(out, zero, left > sizeof zero ? sizeof zero : left)))
            return rc;
    size_t n = crypto_base64((const unsigned char *)p->data, p->len, out->data + at);
    out->len = at + n;
    out->data[out->len] = '\0';
    return BUF_OK;
}
