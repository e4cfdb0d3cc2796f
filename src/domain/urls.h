/*
 * URL rules with no I/O: redirect URIs (absolute http(s), no fragment) and interaction
 * endpoint URLs (http(s); loopback, private and link-local hosts refused unless allowed).
 */
#ifndef PRACA_DOMAIN_URLS_H
#define PRACA_DOMAIN_URLS_H
#include <stddef.h>

#define URL_MAX 2048

/* NULL when valid, else the reason (Portuguese). */
const char *rule_url_check_redirect(const char *url, size_t len);
const char *rule_url_check_endpoint(const char *url, size_t len, int allow_private);
/* An absolute http(s) URL (fragments allowed), for links shown in messages. */
const char *rule_url_check_http(const char *url, size_t len);
/* 1 when the host text names a loopback, private, link-local or unspecified address
 * (literal IPv4/IPv6, or localhost names). */
int rule_url_host_is_private(const char *host, size_t len);
/* The same for an address a name resolved to (a sockaddr of family AF_INET or AF_INET6; any
 * other family counts as private): checked on the address connected to, so that a public name
 * cannot lead to a private address. */
struct sockaddr;
int rule_url_address_is_private(const struct sockaddr *address);

#endif
