/*
 * The in-memory state against the database it follows: random changes (roles and positions,
 * overwrites for roles and members, joins, kicks, bans, timeouts, installs, uninstalls,
 * intents, suspensions, some made by "another process" on a second connection), and after each
 * step every member's permissions in every channel and the audience of each event kind are
 * answered from memory and from SQL and must be equal. PRACA_STATE_STEPS (default 2000) and
 * PRACA_STATE_SEED (default: the time) choose the run; a failure prints the seed to replay it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/idset.h"
#include "core/uuid.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "state/member_list.h"
#include "state/state.h"
#include "state/watchers.h"
#include "store/access.h"
#include "store/events.h"
#include "store/migrate.h"
#include "store/channels.h"
#include "store/writer.h"
#include "test_database.h"

#define SERVERS  2
#define PEOPLE   6
#define BOTS     4
#define CHANNELS 3

typedef char id_t_[UUID_LEN + 1];

static struct world {
    struct test_database database;
    struct store *db;    /* reads, as a worker's connection */
    struct store *other; /* "another process" */
    struct store_writer *writer;
    struct state *state;
    id_t_ people[PEOPLE], bots[BOTS], apps[BOTS], tokens[BOTS];
    id_t_ servers[SERVERS], channels[SERVERS][CHANNELS];
    id_t_ roles[SERVERS][16];
    int nroles[SERVERS];
    unsigned seed, rng;
    int step;
} w;

static uint32_t rnd(uint32_t n)
{
    w.rng = w.rng * 1103515245u + 12345u;
    return (w.rng >> 8) % n;
}

static void put(const char *sql, const struct store_val *args, size_t n)
{
    int rc = store__write_exec(w.writer, sql, args, n, NULL);
    cr_assert(rc == STORE_DONE || rc == STORE_CONSTRAINT, "write failed (%d): %s", rc, sql);
}

static const char *SQL_OW =
    "INSERT INTO overwrites (channel_id, target_id, type, allow, deny) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (channel_id, target_id) DO UPDATE SET allow = $4, deny = $5";
static const char *SQL_INSTALL =
    "INSERT INTO installs (application_id, server_id, role_id, granted_permissions, installed_by,"
    " installed_at) VALUES ($1, $2, $2, 0, $3, 1) ON CONFLICT DO NOTHING";
static const char *SQL_INTENTS = "UPDATE applications SET intents = $2 WHERE id = $1";
/* An install as store/installs.c makes it: a managed role, given to the bot, named by the
 * install; its bits change with the install (a reinstall); it goes with it. */
static const char *SQL_MANAGED =
    "INSERT INTO roles (id, server_id, name, permissions, position, managed, created_at)"
    " SELECT $1, $2, 'bot', $3, $4, 1, 1 WHERE NOT EXISTS"
    " (SELECT 1 FROM installs WHERE application_id = $5 AND server_id = $2)";
static const char *SQL_INSTALL_MANAGED =
    "INSERT INTO installs (application_id, server_id, role_id, granted_permissions, installed_by,"
    " installed_at) SELECT $1, $2, $3, 0, $4, 1 WHERE EXISTS (SELECT 1 FROM roles WHERE id = $3)"
    " ON CONFLICT DO NOTHING";
static const char *SQL_GIVE_MANAGED =
    "INSERT INTO member_roles (server_id, user_id, role_id) SELECT i.server_id, $3, i.role_id"
    " FROM installs i JOIN members m ON m.server_id = i.server_id AND m.user_id = $3"
    " WHERE i.application_id = $1 AND i.server_id = $2 ON CONFLICT DO NOTHING";
static const char *SQL_REINSTALL_ROLE =
    "UPDATE roles SET permissions = $3 WHERE id ="
    " (SELECT role_id FROM installs WHERE application_id = $1 AND server_id = $2) AND managed = 1";
static const char *SQL_REINSTALL =
    "UPDATE installs SET granted_permissions = $3 WHERE application_id = $1 AND server_id = $2";
static const char *SQL_UNINSTALL_ROLES =
    "DELETE FROM roles WHERE server_id = $1 AND managed = 1"
    " AND id NOT IN (SELECT role_id FROM installs WHERE server_id = $1)";

/* ---- the world ---- */

static const char *SQL_USER = "INSERT INTO users (id, username, display_name, is_bot, created_at)"
                              " VALUES ($1, $2, $2, $3, 1)";
static const char *SQL_TOKEN =
    "INSERT INTO tokens (hash, user_id, kind, created_at) VALUES ($1, $2, 'bot', 1)";
static const char *SQL_APP =
    "INSERT INTO applications (id, owner_id, name, client_id, bot_user_id, intents, created_at,"
    " updated_at) VALUES ($1, $2, 'a', $1, $3, $4, 1, 1)";
static const char *SQL_SERVER =
    "INSERT INTO servers (id, name, owner_id, created_at) VALUES ($1, 's', $2, 1)";
static const char *SQL_ROLE = "INSERT INTO roles (id, server_id, name, permissions, position,"
                              " mentionable, created_at) VALUES ($1, $2, 'r', $3, $4, $5, 1)";
static const char *SQL_CHANNEL = "INSERT INTO channels (id, server_id, type, name, created_at)"
                                 " VALUES ($1, $2, 'text', 'c', 1)";
static const char *SQL_JOIN =
    "INSERT INTO members (server_id, user_id, joined_at) VALUES ($1, $2, 1) ON CONFLICT DO NOTHING";

static void make_world(void)
{
    const char *env = getenv("PRACA_STATE_SEED");
    w.seed = env ? (unsigned)strtoul(env, NULL, 10) : (unsigned)time(NULL);
    w.rng = w.seed;
    test_database_create(&w.database, "state");
    cr_assert_eq(store_open(w.database.target, &w.db), STORE_DONE);
    cr_assert_gt(store_migrate(w.db), 0);
    cr_assert_eq(store_open(w.database.target, &w.other), STORE_DONE);
    store_read_batching(w.db, 1);
    w.writer = store_writer_new(w.database.target);
    w.state = state_new();
    cr_assert(w.writer && w.state);
    store_writer_on_change(w.writer, state_on_change, NULL, w.state);
    for (int i = 0; i < PEOPLE; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        uuid_v7(w.people[i]);
        put(SQL_USER, SV_ARGS(SV_STR(w.people[i]), SV_STR(name), SV_INT(0)));
    }
    for (int i = 0; i < BOTS; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        uuid_v7(w.bots[i]);
        uuid_v7(w.apps[i]);
        uuid_v7(w.tokens[i]);
        put(SQL_USER, SV_ARGS(SV_STR(w.bots[i]), SV_STR(name), SV_INT(1)));
        put(SQL_TOKEN, SV_ARGS(SV_STR(w.tokens[i]), SV_STR(w.bots[i])));
        put(SQL_APP, SV_ARGS(SV_STR(w.apps[i]), SV_STR(w.people[0]), SV_STR(w.bots[i]),
                             SV_INT(INTENT_MESSAGES_READ | INTENT_MEMBERS_READ)));
    }
    for (int s = 0; s < SERVERS; s++) {
        uuid_v7(w.servers[s]);
        put(SQL_SERVER, SV_ARGS(SV_STR(w.servers[s]), SV_STR(w.people[s])));
        put(SQL_ROLE, SV_ARGS(SV_STR(w.servers[s]), SV_STR(w.servers[s]),
                              SV_INT(PERM_EVERYONE_DEFAULT), SV_INT(0), SV_INT(0)));
        put(SQL_JOIN, SV_ARGS(SV_STR(w.servers[s]), SV_STR(w.people[s])));
        for (int c = 0; c < CHANNELS; c++) {
            uuid_v7(w.channels[s][c]);
            put(SQL_CHANNEL, SV_ARGS(SV_STR(w.channels[s][c]), SV_STR(w.servers[s])));
        }
    }
}

static void end_world(void)
{
    store_writer_free(w.writer);
    state_free(w.state);
    store_close(w.db);
    store_close(w.other);
    test_database_remove(&w.database);
}

/* ---- changes ---- */

static const char *any_user(void)
{
    uint32_t i = rnd(PEOPLE + BOTS);
    return i < PEOPLE ? w.people[i] : w.bots[i - PEOPLE];
}

static const char *any_role(int s)
{
    return w.nroles[s] ? w.roles[s][rnd((uint32_t)w.nroles[s])] : w.servers[s];
}

static uint64_t any_bits(void)
{
    static const uint64_t picks[] = {PERM_VER_CANAL, PERM_ENVIAR_MENSAGENS, PERM_ADMINISTRADOR,
                                     PERM_MENCIONAR_TODOS, 0};
    return picks[rnd(5)] | (rnd(4) ? 0 : PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS);
}

static void change(void)
{
    static const char *SQL_ROLE_PERMS = "UPDATE roles SET permissions = $2 WHERE id = $1";
    static const char *SQL_ROLE_POS = "UPDATE roles SET position = $2 WHERE id = $1 AND id <> "
                                      "server_id";
    static const char *SQL_ROLE_DEL = "DELETE FROM roles WHERE id = $1 AND id <> server_id";
    static const char *SQL_GIVE = "INSERT INTO member_roles (server_id, user_id, role_id)"
                                  " SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM members"
                                  " WHERE server_id = $1 AND user_id = $2) AND $3 <> $1"
                                  " ON CONFLICT DO NOTHING";
    static const char *SQL_TAKE =
        "DELETE FROM member_roles WHERE server_id = $1 AND user_id = $2 AND role_id = $3";
    static const char *SQL_OW_DEL =
        "DELETE FROM overwrites WHERE channel_id = $1 AND target_id = $2";
    static const char *SQL_KICK = "DELETE FROM members WHERE server_id = $1 AND user_id = $2"
                                  " AND user_id <> (SELECT owner_id FROM servers WHERE id = $1)";
    static const char *SQL_BAN = "INSERT INTO bans (server_id, user_id, banned_by, created_at)"
                                 " VALUES ($1, $2, $2, 1) ON CONFLICT DO NOTHING";
    static const char *SQL_TIMEOUT =
        "UPDATE members SET timeout_until = $3 WHERE server_id = $1 AND user_id = $2";
    static const char *SQL_UNINSTALL =
        "DELETE FROM installs WHERE application_id = $1 AND server_id = $2";
    static const char *SQL_SUSPEND = "UPDATE applications SET suspended = $2 WHERE id = $1";
    static const char *SQL_EVERYONE = "UPDATE roles SET permissions = $2 WHERE id = $1";
    int s = (int)rnd(SERVERS);
    const char *sid = w.servers[s], *cid = w.channels[s][rnd(CHANNELS)];
    uint32_t b = rnd(BOTS);
    switch (rnd(19)) {
    case 0:
        if (w.nroles[s] < 16) {
            uuid_v7(w.roles[s][w.nroles[s]]);
            put(SQL_ROLE, SV_ARGS(SV_STR(w.roles[s][w.nroles[s]]), SV_STR(sid), SV_INT(any_bits()),
                                  SV_INT(1 + rnd(10)), SV_INT(rnd(2))));
            w.nroles[s]++;
        }
        break;
    case 1:
        put(SQL_ROLE_PERMS, SV_ARGS(SV_STR(any_role(s)), SV_INT(any_bits())));
        break;
    case 2:
        put(SQL_ROLE_POS, SV_ARGS(SV_STR(any_role(s)), SV_INT(1 + rnd(10))));
        break;
    case 3:
        put(SQL_ROLE_DEL, SV_ARGS(SV_STR(any_role(s))));
        break;
    case 4:
    case 5:
        put(SQL_GIVE, SV_ARGS(SV_STR(sid), SV_STR(any_user()), SV_STR(any_role(s))));
        break;
    case 6:
        put(SQL_TAKE, SV_ARGS(SV_STR(sid), SV_STR(any_user()), SV_STR(any_role(s))));
        break;
    case 7: {
        int member = rnd(2);
        put(SQL_OW,
            SV_ARGS(SV_STR(cid), SV_STR(member ? any_user() : any_role(s)),
                    SV_STR(member ? "member" : "role"), SV_INT(any_bits()), SV_INT(any_bits())));
        break;
    }
    case 8:
        put(SQL_OW_DEL, SV_ARGS(SV_STR(cid), SV_STR(rnd(2) ? any_user() : any_role(s))));
        break;
    case 9:
        put(SQL_JOIN, SV_ARGS(SV_STR(sid), SV_STR(any_user())));
        break;
    case 10: {
        const char *uid = any_user();
        put(SQL_KICK, SV_ARGS(SV_STR(sid), SV_STR(uid)));
        if (rnd(2))
            put(SQL_BAN, SV_ARGS(SV_STR(sid), SV_STR(uid)));
        break;
    }
    case 11:
        put(SQL_TIMEOUT, SV_ARGS(SV_STR(sid), SV_STR(any_user()),
                                 SV_INT(rnd(2) ? clock_now_ms() + 600000 : clock_now_ms() - 1)));
        break;
    case 12: {
        char rid[UUID_LEN + 1];
        uuid_v7(rid);
        int64_t bits = (int64_t)any_bits();
        put(SQL_JOIN, SV_ARGS(SV_STR(sid), SV_STR(w.bots[b])));
        put(SQL_MANAGED, SV_ARGS(SV_STR(rid), SV_STR(sid), SV_INT(bits), SV_INT(rnd(10) - 5),
                                 SV_STR(w.apps[b])));
        put(SQL_INSTALL_MANAGED,
            SV_ARGS(SV_STR(w.apps[b]), SV_STR(sid), SV_STR(rid), SV_STR(w.people[0])));
        put(SQL_GIVE_MANAGED, SV_ARGS(SV_STR(w.apps[b]), SV_STR(sid), SV_STR(w.bots[b])));
        if (rnd(2)) {
            put(SQL_REINSTALL_ROLE, SV_ARGS(SV_STR(w.apps[b]), SV_STR(sid), SV_INT(bits ^ 3)));
            put(SQL_REINSTALL, SV_ARGS(SV_STR(w.apps[b]), SV_STR(sid), SV_INT(bits ^ 3)));
        }
        break;
    }
    case 13:
        put(SQL_UNINSTALL, SV_ARGS(SV_STR(w.apps[b]), SV_STR(sid)));
        put(SQL_UNINSTALL_ROLES, SV_ARGS(SV_STR(sid)));
        break;
    case 14:
        put(SQL_INTENTS, SV_ARGS(SV_STR(w.apps[b]), SV_INT(rnd(8))));
        break;
    case 16: { /* a channel that sorts first comes and goes: every other one moves */
        static const char *SQL_GONE = "DELETE FROM channels WHERE id = $1";
        char first[UUID_LEN + 1];
        snprintf(first, sizeof first, "00000000-0000-7000-8000-%012d", s);
        int found;
        json_t *ch = store_channel_json(w.db, first, &found);
        json_decref(ch);
        if (ch)
            put(SQL_GONE, SV_ARGS(SV_STR(first)));
        else
            put(SQL_CHANNEL, SV_ARGS(SV_STR(first), SV_STR(sid)));
        break;
    }
    case 17: {
        static const char *SQL_HOIST = "UPDATE roles SET hoist = 1 - hoist WHERE id = $1";
        put(SQL_HOIST, SV_ARGS(SV_STR(any_role(s))));
        break;
    }
    case 18: { /* a nickname, sorting before or after the usernames, or none */
        static const char *SQL_NICK =
            "UPDATE members SET nickname = $3 WHERE server_id = $1 AND user_id = $2";
        static const char *const NICKS[] = {"Ana", "zé", "p3", NULL};
        const char *nick = NICKS[rnd(4)];
        put(SQL_NICK, SV_ARGS(SV_STR(sid), SV_STR(any_user()), SV_STR(nick)));
        break;
    }
    case 15:
        if (rnd(4))
            put(SQL_EVERYONE, SV_ARGS(SV_STR(sid), SV_INT(any_bits())));
        else
            put(SQL_SUSPEND, SV_ARGS(SV_STR(w.apps[b]), SV_INT(rnd(2))));
        break;
    }
}

/* ---- the same questions, from SQL ---- */

static uint64_t sql_perms(const char *sid, const char *uid, const char *cid, int *member)
{
    struct store_access a;
    cr_assert_eq(store_access_load(w.db, sid, uid, &a), STORE_DONE);
    *member = a.is_member;
    if (!a.is_member)
        return 0;
    int rc;
    json_t *ch = store_channel_json(w.db, cid, &rc);
    cr_assert_not_null(ch);
    struct perm_overwrite ow[100];
    size_t n = 0, i;
    json_t *o;
    json_array_foreach(json_object_get(ch, "overwrites"), i, o)
    {
        ow[n].target_id = json_string_value(json_object_get(o, "targetId"));
        ow[n].is_member = !strcmp(json_string_value(json_object_get(o, "type")), "member");
        ow[n].allow = (uint64_t)json_integer_value(json_object_get(o, "allow"));
        ow[n].deny = (uint64_t)json_integer_value(json_object_get(o, "deny"));
        n++;
    }
    const char *role_ids[ACCESS_MAX_ROLES];
    for (size_t r = 0; r < a.nroles; r++)
        role_ids[r] = a.role_ids[r];
    struct perm_overwrites folded;
    rule_perm_overwrites_fold(ow, n, sid, role_ids, a.nroles, uid, &folded);
    struct perm_member m = {.is_owner = !strcmp(a.owner_id, uid),
                            .timed_out = a.timeout_until > clock_now_ms(),
                            .everyone = a.everyone,
                            .roles = a.role_perms,
                            .nroles = a.nroles};
    uint64_t bits = rule_perm_channel(&m, &folded);
    json_decref(ch);
    return bits;
}

/* The bots that get a message event in cid: intent, not suspended, VER_CANAL there. */
static struct idset *sql_audience(const char *sid, const char *cid, uint32_t intent)
{
    struct idset *set = idset_new(BOTS);
    struct store_bot_standing *bots;
    size_t n;
    cr_assert_eq(store__bot_standings(w.db, sid, intent, &bots, &n), STORE_DONE);
    for (size_t i = 0; i < n; i++) { /* members only, as in memory */
        int member;
        uint64_t bits = sql_perms(sid, bots[i].bot_user_id, cid ? cid : w.channels[0][0], &member);
        if (member && (!cid || (bits & PERM_VER_CANAL)))
            idset_add(set, bots[i].bot_user_id);
    }
    store__bot_standings_free(bots, n);
    return set;
}

/* The people (not bots) who are members and may see cid (NULL: every person in the server). */
static struct idset *sql_people(const char *sid, int s, const char *cid)
{
    struct idset *set = idset_new(PEOPLE);
    for (int u = 0; u < PEOPLE; u++) {
        int member;
        uint64_t bits = sql_perms(sid, w.people[u], cid ? cid : w.channels[s][0], &member);
        if (member && (!cid || (bits & PERM_VER_CANAL)))
            idset_add(set, w.people[u]);
    }
    return set;
}

struct has_arg {
    const struct idset *in;
    const char *what;
};

static void must_have(const char *id, void *arg)
{
    struct has_arg *h = arg;
    cr_assert(idset_has(h->in, id), "seed %u step %d: %s: %s missing", w.seed, w.step, h->what, id);
}

static void same_sets(struct idset *mem, struct idset *sql, const char *what)
{
    cr_assert_eq(idset_count(mem), idset_count(sql),
                 "seed %u step %d: %s: %zu in memory, %zu in SQL", w.seed, w.step, what,
                 idset_count(mem), idset_count(sql));
    struct has_arg h = {mem, what};
    idset_each(sql, must_have, &h);
}

/* ---- member lists: followed by deltas, against one built afresh, against SQL ---- */

static const char *const STATUSES[] = {"online", "idle", "dnd", "offline"};
static int status_of_user[PEOPLE + BOTS];
static struct state_member_list *lists[SERVERS][CHANNELS + 1];

static int user_index(const char *uid)
{
    for (int u = 0; u < PEOPLE + BOTS; u++)
        if (!strcmp(uid, u < PEOPLE ? w.people[u] : w.bots[u - PEOPLE]))
            return u;
    return -1;
}

static const char *test_status(void *arg, const char *uid)
{
    (void)arg;
    int u = user_index(uid);
    return u < 0 ? "offline" : STATUSES[status_of_user[u]];
}

/* Someone's status changes now and then; every list hears it. */
static void presence_changes(void)
{
    if (rnd(3))
        return;
    int u = (int)rnd(PEOPLE + BOTS);
    status_of_user[u] = (int)rnd(4);
    const char *uid = u < PEOPLE ? w.people[u] : w.bots[u - PEOPLE];
    for (int s = 0; s < SERVERS; s++)
        for (int c = 0; c <= CHANNELS; c++)
            if (lists[s][c])
                cr_assert_geq(
                    state_member_list_presence(lists[s][c], uid, STATUSES[status_of_user[u]]), 0);
}

static void same_list(struct state_server *srv, int s, int c)
{
    const char *cid = c ? w.channels[s][c - 1] : NULL;
    struct state_member_list **l = &lists[s][c];
    struct state_server *was = *l ? state_member_list_version(*l) : NULL;
    struct state_member_list_delta *d =
        was ? state_member_list_delta(was, srv, test_status, NULL) : NULL;
    state_server_unref(was);
    if (d) {
        cr_assert_geq(state_member_list_apply(*l, d), 0);
    } else { /* first, or a new shape */
        state_member_list_free(*l);
        *l = state_member_list_build(srv, cid, test_status, NULL);
    }
    cr_assert_not_null(*l);
    struct state_member_list *fresh = state_member_list_build(srv, cid, test_status, NULL);
    json_t *followed = state_member_list_range(*l, 0, 1000),
           *built = state_member_list_range(fresh, 0, 1000);
    json_t *sum_followed = state_member_list_summary(*l),
           *sum_built = state_member_list_summary(fresh);
    char *a = json_dumps(followed, JSON_COMPACT), *b = json_dumps(built, JSON_COMPACT);
    cr_assert_str_eq(a, b, "seed %u step %d: list %d/%d followed != built:\n%s\n%s", w.seed, w.step,
                     s, c, a, b);
    cr_assert(json_equal(sum_followed, sum_built), "seed %u step %d: counts", w.seed, w.step);
    cr_assert_eq(state_member_list_rows(*l), json_array_size(built));
    /* Who is listed: those who may see the channel, as SQL says. */
    size_t listed = 0;
    for (size_t i = 0; i < json_array_size(built); i++) {
        json_t *m = json_object_get(json_array_get(built, i), "member");
        if (!m)
            continue;
        listed++;
        int member;
        const char *uid = json_string_value(json_object_get(m, "userId"));
        uint64_t perms = cid ? sql_perms(w.servers[s], uid, cid, &member) : PERM_VER_CANAL;
        cr_assert(perms & PERM_VER_CANAL, "seed %u step %d: %s listed out of sight", w.seed, w.step,
                  uid);
    }
    size_t want = 0;
    for (int u = 0; u < PEOPLE + BOTS; u++) {
        const char *uid = u < PEOPLE ? w.people[u] : w.bots[u - PEOPLE];
        int member;
        uint64_t perms = sql_perms(w.servers[s], uid, cid ? cid : w.channels[s][0], &member);
        want += member && (!cid || (perms & PERM_VER_CANAL));
    }
    cr_assert_eq(listed, want, "seed %u step %d: list %d/%d holds %zu, not %zu", w.seed, w.step, s,
                 c, listed, want);
    free(a);
    free(b);
    json_decref(followed);
    json_decref(built);
    json_decref(sum_followed);
    json_decref(sum_built);
    state_member_list_free(fresh);
}

static void compare(void)
{
    int64_t now = clock_now_ms();
    for (int s = 0; s < SERVERS; s++) {
        const char *sid = w.servers[s];
        int found;
        store_read_release(w.db);
        struct state_server *srv = state_server(w.state, w.db, sid, &found);
        cr_assert_not_null(srv);
        size_t members = 0;
        for (int u = 0; u < PEOPLE + BOTS; u++) {
            const char *uid = u < PEOPLE ? w.people[u] : w.bots[u - PEOPLE];
            const struct state_member *m = state_server_member(srv, uid);
            char name[16];
            snprintf(name, sizeof name, u < PEOPLE ? "p%d" : "b%d", u < PEOPLE ? u : u - PEOPLE);
            cr_assert_eq(state_server_member_by_username(srv, name), m,
                         "seed %u step %d: %s by username", w.seed, w.step, name);
            members += m != NULL;
            for (int c = 0; c < CHANNELS; c++) {
                int member;
                uint64_t want = sql_perms(sid, uid, w.channels[s][c], &member);
                cr_assert_eq(m != NULL, member, "seed %u step %d: membership of %s", w.seed, w.step,
                             uid);
                if (!m)
                    continue;
                int64_t ch = state_server_channel(srv, w.channels[s][c]);
                uint64_t got = state_server_channel_perms(srv, m, (size_t)ch, now);
                cr_assert_eq(got, want, "seed %u step %d: perms of %s in channel %d: %llx != %llx",
                             w.seed, w.step, uid, c, (unsigned long long)got,
                             (unsigned long long)want);
            }
        }
        cr_assert_eq(state_server_member_count(srv), members);
        struct state_server *loaded = state__server_load(w.db, sid, &found);
        cr_assert_not_null(loaded);
        cr_assert_eq(srv->bytes, loaded->bytes,
                     "seed %u step %d: %lld bytes followed, %lld loaded (%zu members)", w.seed,
                     w.step, (long long)srv->bytes, (long long)loaded->bytes, members);
        state_server_unref(loaded);
        for (int c = 0; c <= CHANNELS; c++)
            same_list(srv, s, c);
        for (int c = -1; c < CHANNELS; c++) {
            const char *cid = c < 0 ? NULL : w.channels[s][c];
            int64_t ch = cid ? state_server_channel(srv, cid) : -1;
            uint32_t intent = c < 0 ? INTENT_MEMBERS_READ : INTENT_MESSAGES_READ;
            struct idset *mem = state_server_audience(srv, ch, intent, now);
            struct idset *sql = sql_audience(sid, cid, intent);
            same_sets(mem, sql, cid ? "message audience" : "member audience");
            struct idset *people = sql_people(sid, s, cid);
            struct idset *mem_people = state_server_people(srv, ch, now);
            same_sets(mem_people, people, "people");
            struct idset *both[] = {sql, people};
            struct idset *all = idset_union(both, 2, 0, NULL);
            struct idset *mem_all = state_server_audience_with_people(srv, ch, intent, now);
            same_sets(mem_all, all, "audience with people");
            idset_unref(mem);
            idset_unref(sql);
            idset_unref(people);
            idset_unref(mem_people);
            idset_unref(all);
            idset_unref(mem_all);
        }
        state_server_unref(srv);
    }
    for (int b = 0; b < BOTS; b++) {
        char hash[UUID_LEN + 1];
        memcpy(hash, w.tokens[b], sizeof hash);
        struct store_token_owner mem, sql;
        cr_assert_eq(state_identity(w.state, w.db, hash, &mem), 1);
        cr_assert_eq(store_token_find(w.db, hash, &sql), 1);
        cr_assert_eq(mem.suspended, sql.suspended, "seed %u step %d: suspension of bot %d", w.seed,
                     w.step, b);
    }
    store_read_release(w.db);
}

/* A suspension written by another connection reaches the state within a second. */
static void change_elsewhere(void)
{
    static const char *SQL = "UPDATE applications SET suspended = 1 - suspended WHERE id = $1";
    cr_assert_eq(store__exec(w.other, SQL, SV_ARGS(SV_STR(w.apps[rnd(BOTS)]))), STORE_DONE);
    usleep(1300 * 1000);
}

Test(state, memory_answers_as_sql_after_every_change, .timeout = 600)
{
    make_world();
    const char *env = getenv("PRACA_STATE_STEPS");
    int steps = env ? atoi(env) : 2000;
    fprintf(stderr, "state: %d steps, seed %u (PRACA_STATE_SEED to replay)\n", steps, w.seed);
    for (w.step = 0; w.step < steps; w.step++) {
        if (w.step % 700 == 350)
            change_elsewhere();
        else
            change();
        presence_changes();
        compare();
    }
    for (int s = 0; s < SERVERS; s++)
        for (int c = 0; c <= CHANNELS; c++)
            state_member_list_free(lists[s][c]);
    end_world();
}

/* A person signing out drops that session's identity alone: the bots' stay in memory, so their
 * requests and reconnects go on costing no query. */
Test(state, a_token_change_drops_that_identity_only)
{
    make_world();
    static const char *SQL_SESSION =
        "INSERT INTO tokens (hash, user_id, kind, created_at) VALUES ($1, $2, 'session', 1)";
    static const char *SQL_DELETE = "DELETE FROM tokens WHERE hash = $1";
    put(SQL_SESSION, SV_ARGS(SV_STR("session-a"), SV_STR(w.people[0])));
    put(SQL_SESSION, SV_ARGS(SV_STR("session-b"), SV_STR(w.people[1])));
    struct store_token_owner o;
    cr_assert_eq(state_identities_preload(w.state, w.db), BOTS);
    cr_assert_eq(state_identity(w.state, w.db, "session-a", &o), 1);
    cr_assert_eq(state_identity(w.state, w.db, "session-b", &o), 1);
    store_read_release(w.db);
    uint64_t epoch = state_identity_epoch(w.state);
    put("UPDATE members SET nickname = 'outro' WHERE server_id = $1",
        SV_ARGS(SV_STR(w.servers[0])));
    cr_assert_eq(state_identity_epoch(w.state), epoch, "a server's change leaves identities");
    put(SQL_DELETE, SV_ARGS(SV_STR("session-a")));
    cr_assert_gt(state_identity_epoch(w.state), epoch, "an identity left memory: admit again");
    cr_assert_eq(state_identity_known(w.state, "session-a", &o), 0, "the signed-out session");
    cr_assert_eq(state_identity(w.state, w.db, "session-a", &o), 0, "and it is gone for good");
    cr_assert_eq(state_identity_known(w.state, "session-b", &o), 1, "another person's session");
    for (int b = 0; b < BOTS; b++)
        cr_assert_eq(state_identity_known(w.state, w.tokens[b], &o), 1, "bot %d", b);
    store_read_release(w.db);
    end_world();
}

/* A session admitted without the writer is one whose use writes nothing: not ended, and not due
 * the hourly record of its use. */
Test(state, a_fresh_session_needs_no_write)
{
    struct state *s = state_new();
    state_sessions_expire(s, NULL, 30);
    int64_t now = clock_now_ms();
    cr_assert(state_session_fresh(s, now - 1000), "used a second ago");
    cr_assert(state_session_fresh(s, now - 59 * 60 * 1000LL), "used within the hour");
    cr_assert(!state_session_fresh(s, now - 61 * 60 * 1000LL), "its use is due a record");
    cr_assert(!state_session_fresh(s, now - 31 * 24 * 60 * 60 * 1000LL), "ended");
    state_sessions_expire(s, NULL, 0);
    cr_assert(!state_session_fresh(s, now - 1000), "sessions that end at once are never fresh");
    state_free(s);
}

/* A node holds the servers it serves: one not asked for in a while is forgotten, and comes back
 * from the database on its next use. */
Test(state, idle_servers_are_forgotten_and_load_again)
{
    make_world();
    int found;
    struct state_stats st;
    for (int s = 0; s < SERVERS; s++) {
        store_read_release(w.db);
        state_server_unref(state_server(w.state, w.db, w.servers[s], &found));
    }
    state__stats(w.state, &st);
    cr_assert_eq(st.servers, SERVERS);
    int64_t now = clock_now_ms();
    cr_assert_eq(state_forget_idle(w.state, now, 60000), 0, "all used just now");
    store_read_release(w.db);
    state_server_unref(state_server(w.state, w.db, w.servers[0], &found));
    /* The clock read after the last use: a minute and a millisecond later, none was used. */
    cr_assert_eq(state_forget_idle(w.state, clock_now_ms() + 60001, 60000), SERVERS,
                 "none used since");
    state__stats(w.state, &st);
    cr_assert_eq(st.servers, 0);
    store_read_release(w.db);
    struct state_server *again = state_server(w.state, w.db, w.servers[0], &found);
    cr_assert_not_null(again);
    cr_assert_eq(found, 1);
    cr_assert_str_eq(again->id, w.servers[0]);
    state_server_unref(again);
    store_read_release(w.db);
    end_world();
}

/* A commit that changes hundreds of one server's members (a role held by many deleted, a bulk
 * join) has the server read again whole, and leaves the other servers in memory. */
Test(state, many_members_changed_at_once_read_the_server_whole)
{
    static const char *SQL_USERS =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
        " INSERT INTO users (id, username, display_name, is_bot, created_at)"
        " SELECT '00000000-0000-7000-8000-' || (100000000000 + i), 'many' || i, 'many' || i, 0, 1"
        " FROM n";
    static const char *SQL_JOIN_ALL = "INSERT INTO members (server_id, user_id, joined_at)"
                                      " SELECT $1, id, 1 FROM users WHERE username LIKE 'many%'";
    make_world();
    int found;
    for (int s = 0; s < SERVERS; s++)
        state_server_unref(state_server(w.state, w.db, w.servers[s], &found));
    struct idset *before = NULL;
    struct state_server *old = state_server(w.state, w.db, w.servers[0], &found);
    before = state_server_people(old, -1, clock_now_ms());
    put(SQL_USERS, NULL, 0);
    put(SQL_JOIN_ALL, SV_ARGS(SV_STR(w.servers[0])));
    struct state_stats st;
    state__stats(w.state, &st);
    cr_assert_eq(st.servers, SERVERS - 1, "the other server stays in memory");
    store_read_release(w.db);
    struct state_server *now = state_server(w.state, w.db, w.servers[0], &found);
    cr_assert_eq(state_server_member_count(now), state_server_member_count(old) + 300);
    struct idset *after = state_server_people(now, -1, clock_now_ms());
    cr_assert_eq(idset_count(after), idset_count(before) + 300);
    cr_assert_not_null(state_server_member_by_username(now, "many300"));
    cr_assert_null(state_server_member_by_username(old, "many300"), "the old version unchanged");
    idset_unref(before);
    idset_unref(after);
    state_server_unref(old);
    state_server_unref(now);
    end_world();
}

/* A list of 1,200 members, more than a chunk holds per group, followed through joins, leaves,
 * role and presence changes one at a time: always the same rows as one built afresh, sorted
 * within groups, and any range the same as that slice of the whole. */
static int big_status[1300];

static const char *big_status_of(void *arg, const char *uid)
{
    (void)arg;
    /* '00000000-0000-7000-8000-' || (100000000000 + i); the world's own people stay offline */
    if (strncmp(uid, "00000000-0000-7000-8000-1", 25))
        return "offline";
    int i = atoi(uid + 24 + 6);
    return STATUSES[big_status[i % 1300]];
}

static void same_as_fresh(struct state_member_list *l, struct state_server *srv)
{
    struct state_member_list *fresh =
        state_member_list_build(srv, w.channels[0][0], big_status_of, NULL);
    json_t *a = state_member_list_range(l, 0, 100000),
           *b = state_member_list_range(fresh, 0, 100000);
    cr_assert(json_equal(a, b), "seed %u step %d: followed != built", w.seed, w.step);
    json_t *slice = state_member_list_range(l, 300, 399);
    cr_assert_eq(json_array_size(slice), 100);
    for (size_t i = 0; i < 100; i++)
        cr_assert(json_equal(json_array_get(slice, i), json_array_get(a, 300 + i)));
    const char *prev = NULL;
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *m = json_object_get(json_array_get(a, i), "member");
        const char *name = json_string_value(json_object_get(m, "name"));
        cr_assert(!m || !prev || strcasecmp(prev, name) <= 0, "sorted within a group");
        prev = m ? name : NULL;
    }
    json_decref(a);
    json_decref(b);
    json_decref(slice);
    state_member_list_free(fresh);
}

Test(state, a_large_member_list_follows_changes_one_by_one, .timeout = 300)
{
    static const char *SQL_USERS =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)"
        " INSERT INTO users (id, username, display_name, is_bot, created_at)"
        " SELECT '00000000-0000-7000-8000-' || (100000000000 + i), 'big' || i,"
        " CASE WHEN i % 2 = 0 THEN 'Big' || i ELSE 'big' || i END, 0, 1 FROM n";
    static const char *SQL_JOIN_ALL = "INSERT INTO members (server_id, user_id, joined_at)"
                                      " SELECT $1, id, 1 FROM users WHERE username LIKE 'big%'";
    static const char *SQL_HOISTED =
        "INSERT INTO roles (id, server_id, name, permissions, position, mentionable, created_at,"
        " hoist) VALUES ($1, $2, 'h', 0, 1, 0, 1, 1)";
    static const char *SQL_GIVE_SOME =
        "INSERT INTO member_roles (server_id, user_id, role_id) SELECT $1, id, $2 FROM users"
        " WHERE username LIKE 'big%' AND CAST(substr(username, 4) AS INTEGER) % 7 = 0";
    static const char *SQL_LEAVE = "DELETE FROM members WHERE server_id = $1 AND user_id = $2";
    static const char *SQL_TAKE = "DELETE FROM member_roles WHERE server_id = $1 AND user_id = $2";
    static const char *SQL_GIVE =
        "INSERT INTO member_roles (server_id, user_id, role_id) SELECT $1, $2, $3 WHERE EXISTS"
        " (SELECT 1 FROM members WHERE server_id = $1 AND user_id = $2) ON CONFLICT DO NOTHING";
    make_world();
    for (int i = 0; i < 1300; i++)
        big_status[i] = i % 3 ? 3 : (int)rnd(3);
    char role[UUID_LEN + 1];
    uuid_v7(role);
    put(SQL_USERS, NULL, 0);
    put(SQL_JOIN_ALL, SV_ARGS(SV_STR(w.servers[0])));
    put(SQL_HOISTED, SV_ARGS(SV_STR(role), SV_STR(w.servers[0])));
    put(SQL_GIVE_SOME, SV_ARGS(SV_STR(w.servers[0]), SV_STR(role)));
    int found;
    store_read_release(w.db);
    struct state_server *srv = state_server(w.state, w.db, w.servers[0], &found);
    struct state_member_list *l =
        state_member_list_build(srv, w.channels[0][0], big_status_of, NULL);
    cr_assert_not_null(l);
    json_t *sum = state_member_list_summary(l);
    cr_assert_eq(json_integer_value(json_object_get(sum, "memberCount")), 1201);
    cr_assert_eq(json_array_size(json_object_get(sum, "groups")), 3, "hoisted, online, offline");
    cr_assert_str_eq(
        json_string_value(json_object_get(json_array_get(json_object_get(sum, "groups"), 0), "id")),
        role);
    json_decref(sum);
    same_as_fresh(l, srv);
    for (w.step = 0; w.step < 300; w.step++) {
        char uid[UUID_LEN + 1];
        int i = 1 + (int)rnd(1200);
        snprintf(uid, sizeof uid, "00000000-0000-7000-8000-%lld", 100000000000LL + i);
        switch (rnd(4)) {
        case 0:
            put(rnd(2) ? SQL_LEAVE : SQL_JOIN, SV_ARGS(SV_STR(w.servers[0]), SV_STR(uid)));
            break;
        case 1:
            put(SQL_TAKE, SV_ARGS(SV_STR(w.servers[0]), SV_STR(uid)));
            break;
        case 2:
            put(SQL_GIVE, SV_ARGS(SV_STR(w.servers[0]), SV_STR(uid), SV_STR(role)));
            break;
        case 3: /* presence: the list hears it directly */
            big_status[i] = (int)rnd(4);
            cr_assert_geq(state_member_list_presence(l, uid, STATUSES[big_status[i]]), 0);
            break;
        }
        store_read_release(w.db);
        struct state_server *next = state_server(w.state, w.db, w.servers[0], &found);
        struct state_member_list_delta *d = state_member_list_delta(srv, next, big_status_of, NULL);
        cr_assert_not_null(d, "the same shape: a delta");
        cr_assert_geq(state_member_list_apply(l, d), 0);
        state_server_unref(srv);
        srv = next;
        same_as_fresh(l, srv);
    }
    state_member_list_free(l);
    state_server_unref(srv);
    store_read_release(w.db);
    end_world();
}

/* A member's custom status shows in their row while they are not offline; the same one again
 * changes nothing; none clears it; a member who leaves the list takes theirs along. */
static const char *all_online(void *arg, const char *uid)
{
    (void)arg;
    (void)uid;
    return "online";
}

static json_t *row_of(struct state_member_list *l, const char *uid)
{
    json_t *rows = state_member_list_range(l, 0, 100000), *row = NULL;
    for (size_t i = 0; i < json_array_size(rows) && !row; i++) {
        json_t *m = json_object_get(json_array_get(rows, i), "member");
        if (m && !strcmp(json_string_value(json_object_get(m, "userId")), uid))
            row = json_incref(m);
    }
    json_decref(rows);
    cr_assert_not_null(row, "%s is listed", uid);
    return row;
}

Test(state, a_member_list_row_shows_a_custom_status_while_not_offline)
{
    make_world();
    int found;
    store_read_release(w.db);
    struct state_server *srv = state_server(w.state, w.db, w.servers[0], &found);
    struct state_member_list *l = state_member_list_build(srv, NULL, all_online, NULL);
    cr_assert_not_null(l);
    json_t *rows = state_member_list_range(l, 0, 100000);
    const char *uid = NULL;
    for (size_t i = 0; i < json_array_size(rows) && !uid; i++) {
        json_t *m = json_object_get(json_array_get(rows, i), "member");
        uid = m ? json_string_value(json_object_get(m, "userId")) : NULL;
    }
    cr_assert_not_null(uid, "someone is listed");
    char who[UUID_LEN + 1];
    snprintf(who, sizeof who, "%s", uid);
    json_decref(rows);
    json_t *custom = json_pack("{ssssss}", "type", "custom", "text", "de férias", "emoji", "🌴");
    json_t *row = row_of(l, who);
    cr_assert(json_is_null(json_object_get(row, "activity")), "none before");
    json_decref(row);
    cr_assert_eq(state_member_list_activity(l, who, custom), 1);
    row = row_of(l, who);
    cr_assert(json_equal(json_object_get(row, "activity"), custom));
    json_decref(row);
    json_t *same = json_deep_copy(custom);
    cr_assert_eq(state_member_list_activity(l, who, same), 0, "the same again: no change");
    json_decref(same);
    cr_assert_eq(state_member_list_presence(l, who, "offline"), 1);
    row = row_of(l, who);
    cr_assert(json_is_null(json_object_get(row, "activity")), "offline: none shown");
    json_decref(row);
    cr_assert_eq(state_member_list_presence(l, who, "idle"), 1);
    row = row_of(l, who);
    cr_assert(json_equal(json_object_get(row, "activity"), custom), "back: shown again");
    json_decref(row);
    cr_assert_eq(state_member_list_activity(l, who, NULL), 1);
    row = row_of(l, who);
    cr_assert(json_is_null(json_object_get(row, "activity")), "cleared");
    json_decref(row);
    cr_assert_eq(state_member_list_activity(l, "00000000-0000-7000-8000-999999999999", custom), 0,
                 "not listed: nothing kept");
    json_decref(custom);
    state_member_list_free(l);
    state_server_unref(srv);
    store_read_release(w.db);
    end_world();
}

/* The gateway's questions, answered by state/watchers.c from the in-memory server: where a user
 * stands in a voice channel (each verdict), who watches the channel, who sees a presence. */
Test(state, voice_standing_and_watchers_answer_from_memory)
{
    make_world();
    static const char *SQL_VOICE = "INSERT INTO channels (id, server_id, type, name, created_at)"
                                   " VALUES ($1, $2, 'voice', 'v', 1)";
    const char *sid = w.servers[0];
    id_t_ vcid, nowhere;
    uuid_v7(vcid);
    uuid_v7(nowhere);
    put(SQL_VOICE, SV_ARGS(SV_STR(vcid), SV_STR(sid)));
    for (int p = 1; p <= 4; p++)
        put(SQL_JOIN, SV_ARGS(SV_STR(sid), SV_STR(w.people[p])));
    put(SQL_OW, SV_ARGS(SV_STR(vcid), SV_STR(w.people[2]), SV_STR("member"), SV_INT(0),
                        SV_INT((int64_t)PERM_VER_CANAL)));
    put(SQL_OW, SV_ARGS(SV_STR(vcid), SV_STR(w.people[3]), SV_STR("member"), SV_INT(0),
                        SV_INT((int64_t)PERM_CONECTAR_VOZ)));
    put(SQL_OW, SV_ARGS(SV_STR(vcid), SV_STR(w.people[4]), SV_STR("member"), SV_INT(0),
                        SV_INT((int64_t)PERM_FALAR)));
    for (int b = 0; b < 2; b++) {
        put(SQL_JOIN, SV_ARGS(SV_STR(sid), SV_STR(w.bots[b])));
        put(SQL_INSTALL, SV_ARGS(SV_STR(w.apps[b]), SV_STR(sid), SV_STR(w.people[0])));
    }
    put(SQL_INTENTS, SV_ARGS(SV_STR(w.apps[0]), SV_INT(INTENT_VOICE_CONNECT)));
    struct {
        const char *user, *channel;
        int is_bot;
        enum voice_verdict verdict;
        int can_speak;
    } cases[] = {
        {w.people[0], vcid, 0, VOICE_ALLOWED, 1},               /* the owner */
        {w.people[1], vcid, 0, VOICE_ALLOWED, 1},               /* @everyone's rights */
        {w.people[2], vcid, 0, VOICE_HIDDEN, 0},                /* VER_CANAL denied */
        {w.people[3], vcid, 0, VOICE_NO_PERMISSION, 0},         /* CONECTAR_VOZ denied */
        {w.people[4], vcid, 0, VOICE_ALLOWED, 0},               /* FALAR denied: listens only */
        {w.people[5], vcid, 0, VOICE_NOT_MEMBER, 0},            /* not in the server */
        {w.people[1], w.channels[0][0], 0, VOICE_NOT_VOICE, 0}, /* a text channel */
        {w.people[1], nowhere, 0, VOICE_NO_CHANNEL, 0},         /* no such channel */
        {w.bots[0], vcid, 1, VOICE_ALLOWED, 1},                 /* voice.connect on */
        {w.bots[1], vcid, 1, VOICE_NO_INTENT, 0},               /* voice.connect off */
        {w.bots[2], vcid, 1, VOICE_NOT_MEMBER, 0},              /* not installed there */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct voice_standing st;
        state_voice_standing(w.state, w.db, cases[i].user, cases[i].is_bot, cases[i].channel, &st);
        cr_assert_eq(st.verdict, cases[i].verdict, "case %zu: verdict %d", i, (int)st.verdict);
        cr_assert_eq(st.can_speak, cases[i].can_speak, "case %zu: can_speak", i);
        if (cases[i].verdict == VOICE_ALLOWED)
            cr_assert_str_eq(st.server_id, sid, "case %zu: its server", i);
    }

    /* Who watches the channel: the bot with voice.connect, and the people who may see it. */
    char(*to)[UUID_LEN + 1];
    size_t n;
    cr_assert_eq(state_voice_observers(w.state, w.db, sid, vcid, &to, &n), 0);
    struct idset *watching = idset_of((const char(*)[UUID_LEN + 1]) to, n);
    free(to);
    cr_assert_eq(idset_count(watching), 5, "the bot and four people: %zu", idset_count(watching));
    cr_assert(idset_has(watching, w.bots[0]) && !idset_has(watching, w.bots[1]));
    cr_assert(!idset_has(watching, w.people[2]), "who cannot see it");
    for (int p = 0; p <= 4; p++)
        cr_assert_eq(idset_has(watching, w.people[p]), p != 2, "person %d", p);
    idset_unref(watching);
    cr_assert_eq(state_voice_observers(w.state, w.db, sid, nowhere, &to, &n), 0);
    cr_assert_eq(n, 0, "a channel not in the server: nobody");

    /* Who sees p1's presence: the server's other people, not its bots; none past people_max. */
    struct idset *seeing = state_presence_watchers(w.state, w.db, w.people[1], 100);
    cr_assert_not_null(seeing);
    cr_assert_eq(idset_count(seeing), 4, "%zu", idset_count(seeing));
    cr_assert(!idset_has(seeing, w.people[1]) && !idset_has(seeing, w.bots[0]));
    idset_unref(seeing);
    seeing = state_presence_watchers(w.state, w.db, w.people[1], 4);
    cr_assert_eq(idset_count(seeing), 0, "a server of 5 people is past 4");
    idset_unref(seeing);
    end_world();
}
