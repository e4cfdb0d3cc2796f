/*
 * Reaching Redis as PRACA_REDIS_URL says (redis://[:PASSWORD@]HOST[:PORT][/DB]): its parts, and a
 * blocking connection logged in and on its database, for the relay's writer side, and one per
 * thread for the shared request limits and gateway tickets.
 */
#ifndef PRACA_CORE_REDIS_H
#define PRACA_CORE_REDIS_H
#include <hiredis/hiredis.h>

struct redis_url {
    char host[256];
    int port;           /* 6379 unless given */
    char password[256]; /* "" = none */
    int db;             /* 0 unless given */
};

/* 0, or -1 when url is not of that form (or a part does not fit). */
int redis_url_parse(const char *url, struct redis_url *out);

/* A connection whose connect and every command wait at most timeout_s seconds, after AUTH and
 * SELECT as the URL asks; NULL when Redis cannot be used, logged with who and what the caller
 * does meanwhile (e.g. "limits", "this node counts alone meanwhile"). */
redisContext *redis_open(const struct redis_url *u, int timeout_s, const char *who,
                         const char *meanwhile);
/* The same without logging: why (cap bytes) says what went wrong when it returns NULL. */
redisContext *redis_open_quiet(const struct redis_url *u, int timeout_s, char *why, size_t cap);

/* 1 when the TCP connection on fd is connected to itself: a connect to a port nobody listens on,
 * from the same port, which Linux may pick when the port is in its ephemeral range. Such a
 * "Redis" answers each command with the command. */
int redis_connected_to_itself(int fd);

/* Runs a Lua script by its digest, kept in sha (48 bytes, "" at first) once loaded on c, or by
 * its text when Redis no longer has it (restarted); args as redisCommandArgv's, lens NULL for C
 * strings. The reply (NULL when the connection broke: sha is forgotten). */
redisReply *redis_script(redisContext *c, char sha[48], const char *script, int argc,
                         const char **argv, const size_t *lens);

/* How long a thread's connection waits for a connect or a reply unless its user says less. */
#define REDIS_THREAD_TIMEOUT_S 1

/* The calling thread's own connection to u, opened on first use (who and meanwhile as above),
 * kept until the thread ends; NULL when Redis cannot be used, and then without trying again for
 * a second. */
redisContext *redis_thread(const struct redis_url *u, const char *who, const char *meanwhile);
/* After a command got no reply: the thread's connection is closed, opened again next time. */
void redis_thread_broken(void);
/* r, or NULL when it is none or an error: logged as who's, and when there was no reply at all,
 * the thread's connection is closed (redis_thread_broken). */
redisReply *redis_thread_reply(const char *who, redisContext *c, redisReply *r);

#endif
