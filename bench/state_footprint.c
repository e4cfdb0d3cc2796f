/*
 * How long the in-memory state takes to load and how many bytes it holds, for a database of
 * SERVERS servers with MEMBERS people and BOTS bots spread over them (defaults: 1,000 servers,
 * 100,000 members, 10,000 bots, 10 channels and 5 roles per server). Four more servers measure
 * the marginal bytes of one member, one bot and one channel (each adds 1,000 of one kind to an
 * otherwise empty server). Prints one JSON line.
 *
 *   build/bench-state [SERVERS MEMBERS BOTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/uuid.h"
#include "state/state.h"
#include "store/migrate.h"

#define CHANNELS_PER_SERVER 10
#define ROLES_PER_SERVER    5
#define MARGINAL            1000

typedef char id_t_[UUID_LEN + 1];

static struct store *db;
static long made;

static void exec(const char *sql, const struct store_val *args, size_t n)
{
    if (store__exec(db, sql, args, n) != STORE_DONE) {
        fprintf(stderr, "failed: %s\n", sql);
        exit(1);
    }
}

static void user(char id[UUID_LEN + 1], int is_bot)
{
    static const char *SQL = "INSERT INTO users (id, username, display_name, is_bot, created_at)"
                             " VALUES ($1, $2, $2, $3, 1)";
    char name[32];
    uuid_v7(id);
    snprintf(name, sizeof name, "%c%ld", is_bot ? 'b' : 'u', made++);
    exec(SQL, SV_ARGS(SV_STR(id), SV_STR(name), SV_INT(is_bot)));
}

static void member(const char *sid, const char *uid, const char *role)
{
    static const char *SQL_M =
        "INSERT INTO members (server_id, user_id, joined_at) VALUES ($1, $2, 1)";
    static const char *SQL_R =
        "INSERT INTO member_roles (server_id, user_id, role_id) VALUES ($1, $2, $3)";
    exec(SQL_M, SV_ARGS(SV_STR(sid), SV_STR(uid)));
    if (role)
        exec(SQL_R, SV_ARGS(SV_STR(sid), SV_STR(uid), SV_STR(role)));
}

static void bot(const char *sid, const char *owner, const char *role)
{
    static const char *SQL_APP =
        "INSERT INTO applications (id, owner_id, name, client_id, bot_user_id, intents,"
        " created_at, updated_at) VALUES ($1, $2, 'a', $1, $3, 7, 1, 1)";
    static const char *SQL_INSTALL =
        "INSERT INTO installs (application_id, server_id, role_id, granted_permissions,"
        " installed_by, installed_at) VALUES ($1, $2, $3, 768, $4, 1)";
    id_t_ uid, app;
    user(uid, 1);
    uuid_v7(app);
    exec(SQL_APP, SV_ARGS(SV_STR(app), SV_STR(owner), SV_STR(uid)));
    member(sid, uid, role);
    exec(SQL_INSTALL, SV_ARGS(SV_STR(app), SV_STR(sid), SV_STR(role), SV_STR(owner)));
}

/* A server with its roles and channels; returns the first non-@everyone role in role. */
static void server(char sid[UUID_LEN + 1], const char *owner, int channels, int roles,
                   char role[UUID_LEN + 1])
{
    static const char *SQL_S =
        "INSERT INTO servers (id, name, owner_id, created_at) VALUES ($1, 's', $2, 1)";
    static const char *SQL_R = "INSERT INTO roles (id, server_id, name, permissions, position,"
                               " created_at) VALUES ($1, $2, 'r', $3, $4, 1)";
    static const char *SQL_C = "INSERT INTO channels (id, server_id, type, name, created_at)"
                               " VALUES ($1, $2, 'text', 'c', 1)";
    static const char *SQL_O =
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny) VALUES ($1, $2, 'role',"
        " 256, 512)";
    uuid_v7(sid);
    exec(SQL_S, SV_ARGS(SV_STR(sid), SV_STR(owner)));
    exec(SQL_R, SV_ARGS(SV_STR(sid), SV_STR(sid), SV_INT(1792), SV_INT(0)));
    for (int r = 0; r < roles; r++) {
        id_t_ id;
        uuid_v7(id);
        if (!r)
            memcpy(role, id, sizeof id);
        exec(SQL_R, SV_ARGS(SV_STR(id), SV_STR(sid), SV_INT(768), SV_INT(r + 1)));
    }
    for (int c = 0; c < channels; c++) {
        id_t_ id;
        uuid_v7(id);
        exec(SQL_C, SV_ARGS(SV_STR(id), SV_STR(sid)));
        exec(SQL_O, SV_ARGS(SV_STR(id), SV_STR(roles ? role : sid)));
    }
    member(sid, owner, NULL);
}

static int64_t bytes_of(struct state *st, const char *sid)
{
    int found;
    struct state_server *s = state_server(st, db, sid, &found);
    int64_t b = s ? s->bytes : -1;
    state_server_unref(s);
    return b;
}

int main(int argc, char **argv)
{
    long nservers = argc > 1 ? atol(argv[1]) : 1000, nmembers = argc > 2 ? atol(argv[2]) : 100000,
         nbots = argc > 3 ? atol(argv[3]) : 10000;
    if (nservers < 1 || nmembers < 0 || nbots < 0)
        return 2;
    char path[64];
    snprintf(path, sizeof path, "/tmp/praca-bench-state-%d.db", getpid());
    unlink(path);
    if (store_open(path, &db) != STORE_DONE || store_migrate(db) < 0)
        return 1;
    id_t_ owner, *sids = calloc((size_t)nservers, sizeof *sids), role, extra[4];
    user(owner, 0);
    exec("BEGIN", NULL, 0);
    for (long s = 0; s < nservers; s++)
        server(sids[s], owner, CHANNELS_PER_SERVER, ROLES_PER_SERVER, role);
    for (long m = 0; m < nmembers; m++) {
        id_t_ uid;
        user(uid, 0);
        member(sids[m % nservers], uid, m % 2 ? NULL : role);
    }
    /* Bots go through installs, with the server's first role as their managed role. */
    for (long b = 0; b < nbots; b++) {
        char r[UUID_LEN + 1];
        static const char *SQL = "SELECT id FROM roles WHERE server_id = $1 AND position = 1";
        int found;
        struct store_stmt *st = store__row(db, SQL, sids[b % nservers], &found);
        if (!st)
            return 1;
        store__text_copy(st, 0, r, sizeof r);
        store__finish(st);
        bot(sids[b % nservers], owner, r);
    }
    /* The marginal servers: empty, +members, +bots, +channels. */
    for (int k = 0; k < 4; k++) {
        server(extra[k], owner, k == 3 ? MARGINAL : 0, 1, role);
        for (int i = 0; k == 1 && i < MARGINAL; i++) {
            id_t_ uid;
            user(uid, 0);
            member(extra[k], uid, NULL);
        }
        for (int i = 0; k == 2 && i < MARGINAL; i++)
            bot(extra[k], owner, role);
    }
    exec("COMMIT", NULL, 0);

    struct state *st = state_new();
    int64_t t0 = clock_mono_ms();
    for (long s = 0; s < nservers; s++) {
        int found;
        state_server_unref(state_server(st, db, sids[s], &found));
        if (found != 1)
            return 1;
    }
    int64_t load_ms = clock_mono_ms() - t0;
    struct state_stats stats;
    state__stats(st, &stats);
    int64_t base = bytes_of(st, extra[0]);
    printf("{\"servers\":%ld,\"members\":%ld,\"bots\":%ld,\"channels\":%ld,\"load_ms\":%lld,"
           "\"state_bytes\":%lld,\"bytes_per_member\":%.1f,\"bytes_per_bot\":%.1f,"
           "\"bytes_per_channel\":%.1f}\n",
           nservers, nmembers, nbots, nservers * CHANNELS_PER_SERVER, (long long)load_ms,
           (long long)stats.bytes, (double)(bytes_of(st, extra[1]) - base) / MARGINAL,
           (double)(bytes_of(st, extra[2]) - base) / MARGINAL,
           (double)(bytes_of(st, extra[3]) - base) / MARGINAL);
    state_free(st);
    store_close(db);
    free(sids);
    unlink(path);
    char p2[80];
    snprintf(p2, sizeof p2, "%s-wal", path);
    unlink(p2);
    snprintf(p2, sizeof p2, "%s-shm", path);
    unlink(p2);
    return 0;
}
