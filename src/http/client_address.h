/*
 * The address a request comes from, when praca sits behind a reverse proxy: the proxy's own
 * address is the connection's peer, and it names the client in X-Forwarded-For. Only a peer the
 * operator trusts may say so, and only its last entry counts (the one it added itself; anything
 * before it came from the client and may be forged).
 */
#ifndef PRACA_HTTP_CLIENT_ADDRESS_H
#define PRACA_HTTP_CLIENT_ADDRESS_H
#include <stddef.h>

#include "core/buf.h"

/* Writes the client's address into out (cap bytes): the last entry of forwarded_for when peer
 * equals trusted (non-empty) and that entry is an IPv4 or IPv6 address, else peer. */
void http__client_address(const char *peer, const char *trusted, struct slice forwarded_for,
                          char *out, size_t cap);

#endif
