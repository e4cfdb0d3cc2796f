/* The client's address behind a trusted proxy: see client_address.h. */
#include "http/client_address.h"

#include <arpa/inet.h>
#include <string.h>

/* The last comma-separated entry, without the spaces around it. */
static struct slice last_entry(struct slice s)
{
    size_t start = s.len;
    while (start > 0 && s.ptr[start - 1] != ',')
        start--;
    struct slice e = {s.ptr + start, s.len - start};
    while (e.len && (e.ptr[0] == ' ' || e.ptr[0] == '\t'))
        e.ptr++, e.len--;
    while (e.len && (e.ptr[e.len - 1] == ' ' || e.ptr[e.len - 1] == '\t'))
        e.len--;
    return e;
}

static int is_address(const char *text)
{
    unsigned char bin[16];
    return inet_pton(AF_INET, text, bin) == 1 || inet_pton(AF_INET6, text, bin) == 1;
}

void http__client_address(const char *peer, const char *trusted, struct slice forwarded_for,
                          char *out, size_t cap)
{
    if (trusted && trusted[0] && !strcmp(peer, trusted) && forwarded_for.ptr) {
        char entry[64];
        if (!slice_copy(last_entry(forwarded_for), entry, sizeof entry) && is_address(entry) &&
            !slice_copy(slice_from(entry), out, cap))
            return;
    }
    if (slice_copy(slice_from(peer), out, cap))
        out[0] = '\0';
}
