/* URL rules: see urls.h. Parsing is deliberately strict: scheme://host[:port][/path][?query]. */
#include "domain/urls.h"

#include <arpa/inet.h>
#include <string.h>
#include <strings.h>

struct url_parts {
    const char *host;
    size_t host_len;
    int has_fragment;
};

static int is_ctl_or_space(unsigned char c)
{
    return c <= 0x20 || c == 0x7f;
}

/* Splits an absolute http(s) URL; returns a reason on failure. */
static const char *split(const char *url, size_t len, struct url_parts *out)
{
    if (len == 0 || len > URL_MAX)
        return "deve ser uma URL de até 2048 caracteres";
    for (size_t i = 0; i < len; i++)
        if (is_ctl_or_space((unsigned char)url[i]))
            return "não pode ter espaços nem caracteres de controle";
    size_t skip;
    if (len > 7 && strncasecmp(url, "http://", 7) == 0)
        skip = 7;
    else if (len > 8 && strncasecmp(url, "https://", 8) == 0)
        skip = 8;
    else
        return "deve ser uma URL absoluta http ou https";
    const char *p = url + skip, *end = url + len;
    const char *auth_end = p;
    while (auth_end < end && *auth_end != '/' && *auth_end != '?' && *auth_end != '#')
        auth_end++;
    if (memchr(p, '@', (size_t)(auth_end - p)))
        return "não pode ter usuário ou senha";
    const char *host = p, *host_end;
    if (p < auth_end && *p == '[') {
        const char *close = memchr(p, ']', (size_t)(auth_end - p));
        if (!close)
            return "host inválido";
        host = p + 1;
        host_end = close;
        p = close + 1;
    } else {
        host_end = memchr(p, ':', (size_t)(auth_end - p));
        if (!host_end)
            host_end = auth_end;
        p = host_end;
    }
    if (host_end == host)
        return "falta o host";
    if (p < auth_end) {
        if (*p != ':' || p + 1 == auth_end || auth_end - p > 6)
            return "porta inválida";
        for (const char *q = p + 1; q < auth_end; q++)
            if (*q < '0' || *q > '9')
                return "porta inválida";
    }
    out->host = host;
    out->host_len = (size_t)(host_end - host);
    out->has_fragment = memchr(url, '#', len) != NULL;
    return NULL;
}

const char *rule_url_check_redirect(const char *url, size_t len)
{
    struct url_parts u;
    const char *why = split(url, len, &u);
    if (why)
        return why;
    if (u.has_fragment)
        return "não pode ter fragmento (#)";
    return NULL;
}

const char *rule_url_check_http(const char *url, size_t len)
{
    struct url_parts u;
    return split(url, len, &u);
}

const char *rule_url_check_endpoint(const char *url, size_t len, int allow_private)
{
    struct url_parts u;
    const char *why = split(url, len, &u);
    if (why)
        return why;
    if (!allow_private && rule_url_host_is_private(u.host, u.host_len))
        return "endereços locais ou privados não são permitidos";
    return NULL;
}

static int ipv4_private(const unsigned char a[4])
{
    return a[0] == 0 || a[0] == 10 || a[0] == 127 || (a[0] == 169 && a[1] == 254) ||
           (a[0] == 172 && (a[1] & 0xf0) == 16) || (a[0] == 192 && a[1] == 168) ||
           (a[0] == 100 && (a[1] & 0xc0) == 64) || a[0] >= 224;
}

static int ends_with_nocase(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

/* Loopback, unspecified, unique-local, link- and site-local, multicast, and every form that
 * carries an IPv4 address (compatible, mapped, NAT64): all private. */
static int ipv6_private(const unsigned char b[16])
{
    static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b};
    int high_zero = 1;
    for (int i = 0; i < 10; i++)
        high_zero &= b[i] == 0;
    return (high_zero && ((b[10] == 0 && b[11] == 0) || (b[10] == 0xff && b[11] == 0xff))) ||
           memcmp(b, nat64, sizeof nat64) == 0 || (b[0] & 0xfe) == 0xfc ||
           (b[0] == 0xfe && (b[1] & 0x80) == 0x80) || b[0] == 0xff;
}

int rule_url_host_is_private(const char *host, size_t len)
{
    char text[256];
    if (len < sizeof text) {
        memcpy(text, host, len);
        text[len] = '\0';
        /* Every spelling the resolver takes for IPv4: 2130706433, 127.1, 0x7f.0.0.1 … */
        struct in_addr v4;
        if (inet_aton(text, &v4))
            return ipv4_private((const unsigned char *)&v4.s_addr);
        struct in6_addr v6;
        if (memchr(text, ':', len))
            return inet_pton(AF_INET6, text, &v6) != 1 || ipv6_private(v6.s6_addr);
    }
    if (ends_with_nocase(host, len, ".") && len > 1)
        len--;
    return (len == 9 && strncasecmp(host, "localhost", 9) == 0) ||
           ends_with_nocase(host, len, ".localhost") || ends_with_nocase(host, len, ".local") ||
           ends_with_nocase(host, len, ".internal");
}

int rule_url_address_is_private(const struct sockaddr *address)
{
    char host[INET6_ADDRSTRLEN] = "";
    const void *ip = address->sa_family == AF_INET
                         ? (const void *)&((const struct sockaddr_in *)address)->sin_addr
                         : (const void *)&((const struct sockaddr_in6 *)address)->sin6_addr;
    return (address->sa_family != AF_INET && address->sa_family != AF_INET6) ||
           !inet_ntop(address->sa_family, ip, host, sizeof host) ||
           rule_url_host_is_private(host, strlen(host));
}
