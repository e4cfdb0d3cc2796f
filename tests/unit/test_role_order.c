/*
 * Roles' order keys and ranks (store/roles.h): a new role or a bot's install writes its own row
 * and no other role's key, whatever the server holds; ranks read back as 0 (@everyone), 1 … n
 * in the same order from every reader (the list, one role, a member's access, the state).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/server.h"
#include "store/access.h"
#include "store/db.h"
#include "store/installs.h"
#include "store/migrate.h"
#include "store/roles.h"
#include "store/servers.h"
#include "store/writer.h"
#include "test_database.h"

static struct test_database database;
static struct store *db;
static struct store_writer *w;

#define SID   "00000000-0000-7000-8000-000000000001"
#define OWNER "00000000-0000-7000-8000-0000000000aa"
#define ROLES 40

static void role_id(char out[UUID_LEN + 1], int i)
{
    snprintf(out, UUID_LEN + 1, "00000000-0000-7000-8000-1%011d", i);
}

static void setup(void)
{
    static const char *SQL_USER = "INSERT INTO users (id, username, display_name, is_bot,"
                                  " created_at) VALUES ($1, $1, $1, $2, 1)";
    test_database_create(&database, "roles");
    cr_assert_eq(store_open(database.target, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
    w = store_writer_new(database.target);
    cr_assert_not_null(w);
    cr_assert_eq(store__write_exec(w, SQL_USER, SV_ARGS(SV_STR(OWNER), SV_INT(0)), NULL),
                 STORE_DONE);
    struct store_new_server s = {.id = SID,
                                 .name = "s",
                                 .owner_id = OWNER,
                                 .channel_id = "00000000-0000-7000-8000-0000000000cc",
                                 .now = 1};
    cr_assert_eq(store_server_create(w, &s), STORE_DONE);
    for (int i = 0; i < ROLES; i++) {
        char id[UUID_LEN + 1];
        role_id(id, i);
        struct store_new_role r = {.id = id, .server_id = SID, .name = "r", .now = 1};
        cr_assert_eq(store_role_create(w, &r), STORE_DONE);
    }
}

static void teardown(void)
{
    store_writer_free(w);
    store_close(db);
    test_database_remove(&database);
}

TestSuite(role_order, .init = setup, .fini = teardown);

/* The stored keys of the roles made at setup (created at 1), in ID order, as one string to
 * compare before and after. */
static char *keys(void)
{
    static const char *SQL = "SELECT id, position FROM roles WHERE server_id = $1"
                             " AND created_at = 1 ORDER BY id";
    static char out[8192];
    size_t len = 0;
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(SID)));
    cr_assert_not_null(st);
    while (store__step(st) == STORE_ROW)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s=%lld ", store__text(st, 0),
                                (long long)store__int(st, 1));
    store__finish(st);
    return strdup(out);
}

static int64_t rank_of(const char *rid)
{
    int rc;
    json_t *role = store_role_json(db, rid, &rc);
    cr_assert_not_null(role, "role %s", rid);
    int64_t rank = json_integer_value(json_object_get(role, "position"));
    json_decref(role);
    return rank;
}

/* The list answers @everyone first, then ranks 1 … n, each equal to what one role's read says. */
static void list_agrees(size_t expected)
{
    json_t *list = store_roles_json(db, SID);
    cr_assert_eq(json_array_size(list), expected);
    size_t i;
    json_t *r;
    json_array_foreach(list, i, r)
    {
        const char *id = json_string_value(json_object_get(r, "id"));
        cr_assert_eq(json_integer_value(json_object_get(r, "position")), (json_int_t)i, "%s", id);
        cr_assert_eq(rank_of(id), (int64_t)i, "%s", id);
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(list, 0), "id")), SID);
    json_decref(list);
}

Test(role_order, new_roles_go_just_above_everyone_without_moving_the_others)
{
    char first[UUID_LEN + 1], last[UUID_LEN + 1];
    role_id(first, 0);
    role_id(last, ROLES - 1);
    cr_assert_eq(rank_of(SID), 0);
    cr_assert_eq(rank_of(last), 1, "the newest is just above @everyone");
    cr_assert_eq(rank_of(first), ROLES, "the first made is the highest");
    list_agrees(ROLES + 1);
    char *before = keys();
    struct store_new_role r = {
        .id = "00000000-0000-7000-8000-0000000000dd", .server_id = SID, .name = "new", .now = 2};
    cr_assert_eq(store_role_create(w, &r), STORE_DONE);
    char *after = keys();
    cr_assert_str_eq(before, after, "no other key moved");
    cr_assert_eq(rank_of(r.id), 1);
    cr_assert_eq(rank_of(last), 2);
    list_agrees(ROLES + 2);
    free(before);
    free(after);
}

Test(role_order, an_install_and_an_uninstall_write_no_other_role)
{
    static const char *SQL_BOT = "INSERT INTO users (id, username, display_name, is_bot,"
                                 " created_at) VALUES ($1, $1, $1, 1, 1)";
    static const char *SQL_APP =
        "INSERT INTO applications (id, owner_id, name, client_id, bot_user_id, intents,"
        " created_at, updated_at) VALUES ($1, $2, 'a', $1, $3, 0, 1, 1)";
    const char *bot = "00000000-0000-7000-8000-0000000000b0";
    const char *app = "00000000-0000-7000-8000-0000000000a0";
    const char *bot_role = "00000000-0000-7000-8000-0000000000e0";
    cr_assert_eq(store__write_exec(w, SQL_BOT, SV_ARGS(SV_STR(bot)), NULL), STORE_DONE);
    cr_assert_eq(
        store__write_exec(w, SQL_APP, SV_ARGS(SV_STR(app), SV_STR(OWNER), SV_STR(bot)), NULL),
        STORE_DONE);
    char *before = keys();
    struct store_install in = {.app_id = app,
                               .server_id = SID,
                               .bot_user_id = bot,
                               .role_name = "Bot: a",
                               .installer_id = OWNER,
                               .new_role_id = bot_role,
                               .granted = 0,
                               .now = 3};
    cr_assert_eq(store_install(w, &in), STORE_DONE);
    cr_assert_eq(in.created, 1);
    char *installed = keys();
    cr_assert_str_eq(before, installed, "no role but the bot's was written");
    cr_assert_eq(rank_of(bot_role), 1);
    list_agrees(ROLES + 2);
    /* The bot's access compares by its role's key, which is the lowest but @everyone's; the
     * state has the role with the bot, not with the server's shape. */
    struct store_access a;
    cr_assert_eq(store_access_load(db, SID, bot, &a), STORE_DONE);
    int64_t key;
    cr_assert_eq(store_role_key(db, bot_role, &key), 1);
    cr_assert_eq(a.top_key, key);
    int64_t rank;
    cr_assert_eq(store_role_rank_of_key(db, SID, key, &rank), STORE_DONE);
    cr_assert_eq(rank, 1);
    int found;
    struct state_server *srv = state__server_load(db, SID, &found);
    cr_assert_eq(found, 1);
    cr_assert_eq(srv->shape->nroles, ROLES, "people's roles only");
    const struct state_bot *b = (const struct state_bot *)pmap_get(&srv->apps, app);
    cr_assert_not_null(b);
    cr_assert_str_eq(b->role.id, bot_role);
    cr_assert_eq(b->role.key, key);
    struct store_access mem;
    state_server_access(srv, bot, &mem);
    cr_assert_eq(mem.top_key, a.top_key);
    cr_assert_eq(mem.nroles, 1);
    cr_assert_str_eq(mem.role_ids[0], bot_role);
    state_server_unref(srv);
    struct store_uninstall u = {.app_id = app, .server_id = SID};
    cr_assert_eq(store_uninstall(w, &u), STORE_DONE);
    cr_assert_eq(u.removed, 1);
    char *gone = keys();
    cr_assert_str_eq(before, gone, "no role's key moved when the bot's went");
    list_agrees(ROLES + 1);
    free(before);
    free(installed);
    free(gone);
}

Test(role_order, a_move_ranks_the_role_where_asked_and_the_others_close_up)
{
    char top[UUID_LEN + 1], low[UUID_LEN + 1], mid[UUID_LEN + 1];
    role_id(top, 0);
    role_id(low, ROLES - 1);
    role_id(mid, ROLES / 2);
    int64_t to = 5;
    cr_assert_eq(store_role_move(w, top, &to), STORE_DONE);
    cr_assert_eq(to, 5);
    cr_assert_eq(rank_of(top), 5);
    cr_assert_eq(rank_of(low), 1);
    list_agrees(ROLES + 1);
    to = 1000;
    cr_assert_eq(store_role_move(w, low, &to), STORE_DONE);
    cr_assert_eq(to, ROLES, "past the top: the top");
    cr_assert_eq(rank_of(low), ROLES);
    /* A role made after the move still goes just above @everyone. */
    struct store_new_role r = {
        .id = "00000000-0000-7000-8000-0000000000dd", .server_id = SID, .name = "new", .now = 2};
    cr_assert_eq(store_role_create(w, &r), STORE_DONE);
    cr_assert_eq(rank_of(r.id), 1);
    cr_assert_eq(rank_of(low), ROLES + 1);
    list_agrees(ROLES + 2);
    /* Deleting one closes the ranks up without writing a key. */
    char *before = keys();
    cr_assert_eq(store_role_delete(w, mid), STORE_DONE);
    char *after = keys();
    cr_assert_lt(strlen(after), strlen(before));
    list_agrees(ROLES + 1);
    free(before);
    free(after);
}

/* The state orders a server's roles as the store ranks them, and @everyone's key is the one
 * access.h compares with. */
Test(role_order, the_state_orders_as_the_store_ranks)
{
    int found;
    struct state_server *srv = state__server_load(db, SID, &found);
    cr_assert_eq(found, 1);
    for (size_t i = 0; i < srv->shape->nroles; i++)
        cr_assert_eq(rank_of(srv->shape->roles[i].id), (int64_t)(srv->shape->nroles - i));
    state_server_unref(srv);
    int64_t key;
    cr_assert_eq(store_role_key(db, SID, &key), 1);
    cr_assert_eq(key, ROLE_KEY_EVERYONE);
    struct store_access a;
    cr_assert_eq(store_access_load(db, SID, OWNER, &a), STORE_DONE);
    cr_assert_eq(a.top_key, ROLE_KEY_EVERYONE, "the owner holds no role");
}
