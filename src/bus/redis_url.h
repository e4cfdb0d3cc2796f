/* redis://[:PASSWORD@]HOST[:PORT][/DB], as PRACA_REDIS_URL gives it. */
#ifndef PRACA_BUS_REDIS_URL_H
#define PRACA_BUS_REDIS_URL_H

struct redis_url {
    char host[256];
    int port;           /* 6379 unless given */
    char password[256]; /* "" = none */
    int db;             /* 0 unless given */
};

/* 0, or -1 when url is not of that form (or a part does not fit). */
int redis_url_parse(const char *url, struct redis_url *out);

#endif
