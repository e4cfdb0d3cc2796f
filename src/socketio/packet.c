/* Socket.IO packets: see packet.h. */
#include "socketio/packet.h"

#include <string.h>

static int reserved_event(const char *name)
{
    static const char *names[] = {"connect",       "connect_error", "disconnect",
                                  "disconnecting", "newListener",   "removeListener"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

static int valid_payload(enum sio_type type, json_t *data)
{
    switch (type) {
    case SIO_CONNECT:
        return !data || json_is_object(data);
    case SIO_DISCONNECT:
        return !data;
    case SIO_EVENT:
    case SIO_BINARY_EVENT: {
        if (!json_is_array(data) || json_array_size(data) == 0)
            return 0;
        json_t *first = json_array_get(data, 0);
        return json_is_integer(first) ||
               (json_is_string(first) && !reserved_event(json_string_value(first)));
    }
    case SIO_ACK:
    case SIO_BINARY_ACK:
        return json_is_array(data);
    case SIO_CONNECT_ERROR:
        return json_is_object(data) || json_is_string(data);
    }
    return 0;
}

int sio__decode(const char *s, size_t len, struct sio_packet *out)
{
    memset(out, 0, sizeof *out);
    out->id = -1;
    out->nsp = SLICE_LIT("/");
    if (len == 0 || s[0] < '0' || s[0] > '6')
        return SIO_EDECODE;
    out->type = (enum sio_type)(s[0] - '0');
    size_t i = 1;
    if (out->type == SIO_BINARY_EVENT || out->type == SIO_BINARY_ACK) {
        size_t start = i;
        long n = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 3)
            n = n * 10 + (s[i++] - '0');
        if (i == start || i >= len || s[i] != '-' || n > SIO_MAX_ATTACHMENTS)
            return SIO_EDECODE;
        out->attachments = (int)n;
        i++;
    }
    if (i < len && s[i] == '/') {
        size_t start = i;
        while (i < len && s[i] != ',')
            i++;
        out->nsp = (struct slice){s + start, i - start};
        if (i < len)
            i++; /* the ',' */
    }
    if (i < len && s[i] >= '0' && s[i] <= '9') {
        int64_t id = 0;
        size_t start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (i - start >= 15)
                return SIO_EDECODE;
            id = id * 10 + (s[i++] - '0');
        }
        out->id = id;
    }
    if (i < len) {
        json_error_t err;
        out->data = json_loadb(s + i, len - i, JSON_DECODE_ANY, &err);
        if (!out->data)
            return SIO_EDECODE;
    }
    if (!valid_payload(out->type, out->data)) {
        sio__packet_cleanup(out);
        return SIO_EDECODE;
    }
    return SIO_OK;
}

void sio__packet_cleanup(struct sio_packet *p)
{
    json_decref(p->data);
    p->data = NULL;
}

int sio_encode_event(struct buf *out, const char *name, const char *payload, size_t len,
                     uint64_t offset)
{
    if (buf_appendf(out, "2[\"%s\",", name) || buf_append(out, payload, len))
        return -1;
    return offset ? buf_appendf(out, ",\"%llu\"]", (unsigned long long)offset)
                  : buf_append(out, "]", 1);
}

int sio__encode(struct buf *out, enum sio_type type, const char *nsp, int64_t id, int attachments,
                const char *json, size_t json_len)
{
    int rc = buf_appendf(out, "%d", (int)type);
    if (!rc && (type == SIO_BINARY_EVENT || type == SIO_BINARY_ACK))
        rc = buf_appendf(out, "%d-", attachments);
    if (!rc && nsp && strcmp(nsp, "/") != 0)
        rc = buf_appendf(out, "%s,", nsp);
    if (!rc && id >= 0)
        rc = buf_appendf(out, "%lld", (long long)id);
    if (!rc && json_len)
        rc = buf_append(out, json, json_len);
    return rc;
}
