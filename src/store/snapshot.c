/* One server's state in one pass, and the change marks of the writer: see snapshot.h. */
#include "store/snapshot.h"

#include "store/engine.h"

#include <stdio.h>
#include <string.h>

static const char *SQL_SERVER =
    "SELECT s.owner_id, s.verification_level, s.requires_2fa, s.requires_rules_acceptance,"
    " s.automod_blocked_words, COALESCE(s.automod_max_mentions, -1), r.permissions"
    " FROM servers s JOIN roles r ON r.id = s.id WHERE s.id = $1";
static const char *SQL_ROLES =
    "SELECT id, name, permissions, position, mentionable, hoist FROM roles"
    " WHERE server_id = $1 AND id <> $1 AND managed = 0 ORDER BY position DESC, id";
static const char *SQL_CHANNELS =
    "SELECT id, type, parent_id FROM channels WHERE server_id = $1 ORDER BY id";
static const char *SQL_OVERWRITES =
    "SELECT o.channel_id, o.target_id, o.type = 'member', o.allow, o.deny FROM overwrites o"
    " JOIN channels c ON c.id = o.channel_id WHERE c.server_id = $1"
    " ORDER BY o.channel_id, o.target_id";
#define MEMBERS                                                                                    \
    "SELECT m.user_id, u.username, u.is_bot, u.mfa_enabled, u.created_at, m.joined_at,"            \
    " COALESCE(m.timeout_until, 0), COALESCE(m.rules_accepted_at, 0),"                             \
    " COALESCE(m.nickname, u.display_name)"                                                        \
    " FROM members m JOIN users u ON u.id = m.user_id WHERE m.server_id = $1"
#define MEMBER_ROLES                                                                               \
    "SELECT mr.user_id, mr.role_id FROM member_roles mr"                                           \
    " JOIN roles r ON r.id = mr.role_id WHERE mr.server_id = $1"
#define BOTS                                                                                       \
    "SELECT a.bot_user_id, a.id, a.intents, a.suspended, r.id, r.permissions, r.position"          \
    " FROM installs i JOIN applications a ON a.id = i.application_id"                              \
    " LEFT JOIN roles r ON r.id = i.role_id"                                                       \
    " WHERE i.server_id = $1 AND a.bot_user_id IS NOT NULL"
static const char *SQL_MEMBERS = MEMBERS;
static const char *SQL_MEMBER_ROLES = MEMBER_ROLES;
static const char *SQL_BOTS = BOTS;
/* The same for one member or one application (statements are cached by their text's address,
 * so each is a string of its own). */
static const char *SQL_MEMBER = MEMBERS " AND m.user_id = $2";
static const char *SQL_MEMBER_ROLES_OF = MEMBER_ROLES " AND mr.user_id = $2";
static const char *SQL_BOT = BOTS " AND i.application_id = $2";

typedef int (*row_fn)(struct store_stmt *st, const struct store_server_visitor *v, void *arg);

static const char *text_or_empty(struct store_stmt *st, int col)
{
    const char *s = store__text(st, col);
    return s ? s : "";
}

static int on_server(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    struct store_server_row r = {
        .owner_id = text_or_empty(st, 0),
        .verification_level = (int)store__int(st, 1),
        .requires_2fa = (int)store__int(st, 2),
        .requires_rules = (int)store__int(st, 3),
        .automod_words = text_or_empty(st, 4),
        .automod_max = store__int(st, 5),
        .everyone = (uint64_t)store__int(st, 6),
    };
    return v->server(arg, &r);
}

static int on_role(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    struct store_role_row r = {text_or_empty(st, 0),        text_or_empty(st, 1),
                               (uint64_t)store__int(st, 2), store__int(st, 3),
                               (int)store__int(st, 4),      (int)store__int(st, 5)};
    return v->role(arg, &r);
}

static int on_channel(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    struct store_channel_row r = {text_or_empty(st, 0), text_or_empty(st, 1), store__text(st, 2)};
    return v->channel(arg, &r);
}

static int on_overwrite(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    struct store_overwrite_row r = {text_or_empty(st, 0), text_or_empty(st, 1),
                                    (int)store__int(st, 2), (uint64_t)store__int(st, 3),
                                    (uint64_t)store__int(st, 4)};
    return v->overwrite(arg, &r);
}

static int on_member(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    struct store_member_row r = {
        .user_id = text_or_empty(st, 0),
        .username = text_or_empty(st, 1),
        .is_bot = (int)store__int(st, 2),
        .mfa_enabled = (int)store__int(st, 3),
        .account_created_at = store__int(st, 4),
        .joined_at = store__int(st, 5),
        .timeout_until = store__int(st, 6),
        .rules_accepted_at = store__int(st, 7),
        .name = text_or_empty(st, 8),
    };
    return v->member(arg, &r);
}

static int on_member_role(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    return v->member_role(arg, text_or_empty(st, 0), text_or_empty(st, 1));
}

static int on_bot(struct store_stmt *st, const struct store_server_visitor *v, void *arg)
{
    struct store_bot_row r = {
        text_or_empty(st, 0),   text_or_empty(st, 1), (uint32_t)store__int(st, 2),
        (int)store__int(st, 3), text_or_empty(st, 4), (uint64_t)store__int(st, 5),
        store__int(st, 6)};
    return v->bot(arg, &r);
}

/* Runs one query and hands each row on: the number of rows, or < 0. */
static int walk(struct store *db, const char *sql, const struct store_val *args, size_t nargs,
                row_fn fn, const struct store_server_visitor *v, void *arg)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    int rc, rows = 0;
    while ((rc = store__step(st)) == STORE_ROW) {
        rows++;
        if (fn && (rc = fn(st, v, arg)) < 0)
            break;
    }
    store__finish(st);
    return rc < 0 ? rc : rows;
}

int store_server_walk(struct store *db, const char *sid, int parts,
                      const struct store_server_visitor *v, void *arg)
{
    static const struct {
        const char **sql;
        row_fn fn;
        int part;
    } steps[] = {{&SQL_ROLES, on_role, STORE_WALK_SHAPE},
                 {&SQL_CHANNELS, on_channel, STORE_WALK_SHAPE},
                 {&SQL_OVERWRITES, on_overwrite, STORE_WALK_SHAPE},
                 {&SQL_MEMBERS, on_member, STORE_WALK_MEMBERS},
                 {&SQL_MEMBER_ROLES, on_member_role, STORE_WALK_MEMBERS},
                 {&SQL_BOTS, on_bot, STORE_WALK_MEMBERS}};
    int rc = walk(db, SQL_SERVER, SV_ARGS(SV_STR(sid)), v->server ? on_server : NULL, v, arg);
    if (rc <= 0)
        return rc;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if ((parts & steps[i].part) &&
            (rc = walk(db, *steps[i].sql, SV_ARGS(SV_STR(sid)), steps[i].fn, v, arg)) < 0)
            return rc;
    return 1;
}

int store_server_member_walk(struct store *db, const char *sid, const char *uid,
                             const struct store_server_visitor *v, void *arg)
{
    int rc = walk(db, SQL_MEMBER, SV_ARGS(SV_STR(sid), SV_STR(uid)), on_member, v, arg);
    if (rc <= 0)
        return rc;
    rc = walk(db, SQL_MEMBER_ROLES_OF, SV_ARGS(SV_STR(sid), SV_STR(uid)), on_member_role, v, arg);
    return rc < 0 ? rc : 1;
}

int store_server_install_walk(struct store *db, const char *sid, const char *app_id,
                              const struct store_server_visitor *v, void *arg)
{
    int rc = walk(db, SQL_BOT, SV_ARGS(SV_STR(sid), SV_STR(app_id)), on_bot, v, arg);
    return rc < 0 ? rc : rc > 0;
}

/* ---- change marks ---- */

/* After each change to a table the state reads, the servers it touches (and '' when identities
 * may have changed); recorded on the writer's connection only. */
#define MEMBER(row)  "VALUES ('m:' || " row ".server_id || ':' || " row ".user_id)"
#define INSTALL(row) "VALUES ('a:' || " row ".server_id || ':' || " row ".application_id)"
static const struct store_change_mark MARKS[] = {
    {"servers_u", "UPDATE ON main.servers", "VALUES (NEW.id)"},
    {"servers_d", "DELETE ON main.servers", "VALUES (OLD.id)"},
    {"channels_i", "INSERT ON main.channels", "VALUES (NEW.server_id)"},
    {"channels_u", "UPDATE ON main.channels", "VALUES (NEW.server_id), (OLD.server_id)"},
    {"channels_d", "DELETE ON main.channels", "VALUES (OLD.server_id)"},
    /* A bot's managed role changes only with its install, whose mark reads it again. */
    {"roles_i", "INSERT ON main.roles", "SELECT NEW.server_id WHERE NEW.managed = 0"},
    {"roles_u", "UPDATE ON main.roles", "SELECT NEW.server_id WHERE NEW.managed = 0"},
    {"roles_d", "DELETE ON main.roles", "SELECT OLD.server_id WHERE OLD.managed = 0"},
    {"members_i", "INSERT ON main.members", MEMBER("NEW")},
    {"members_u", "UPDATE ON main.members", MEMBER("NEW")},
    {"members_d", "DELETE ON main.members", MEMBER("OLD")},
    {"mroles_i", "INSERT ON main.member_roles", MEMBER("NEW")},
    {"mroles_d", "DELETE ON main.member_roles", MEMBER("OLD")},
    {"installs_i", "INSERT ON main.installs", INSTALL("NEW")},
    {"installs_u", "UPDATE ON main.installs", INSTALL("NEW")},
    {"installs_d", "DELETE ON main.installs", INSTALL("OLD")},
    {"ow_i", "INSERT ON main.overwrites",
     "SELECT server_id FROM main.channels WHERE id = NEW.channel_id"},
    {"ow_u", "UPDATE ON main.overwrites",
     "SELECT server_id FROM main.channels WHERE id = NEW.channel_id"},
    {"ow_d", "DELETE ON main.overwrites",
     "SELECT server_id FROM main.channels WHERE id = OLD.channel_id"},
    {"apps_u", "UPDATE OF intents, suspended, bot_user_id ON main.applications",
     "SELECT 'a:' || server_id || ':' || NEW.id FROM main.installs WHERE application_id = NEW.id"
     " UNION SELECT ''"},
    {"apps_d", "DELETE ON main.applications", "VALUES ('')"},
    {"users_u", "UPDATE OF username, display_name, mfa_enabled, created_at, is_bot ON main.users",
     "SELECT 'm:' || server_id || ':' || NEW.id FROM main.members WHERE user_id = NEW.id"},
    {"tokens_u", "UPDATE OF hash, user_id, kind ON main.tokens", "VALUES ('t:' || OLD.hash)"},
    {"tokens_d", "DELETE ON main.tokens", "VALUES ('t:' || OLD.hash)"},
};

int store_change_parse(const char *mark, char sid[UUID_LEN + 1], char who[UUID_LEN + 1])
{
    size_t len = strlen(mark);
    who[0] = '\0';
    if (len == UUID_LEN && mark[1] != ':') {
        memcpy(sid, mark, UUID_LEN + 1);
        return 0;
    }
    if (len == UUID_LEN + 2 && !strncmp(mark, STORE_CHANGE_WHOLE, 2)) {
        memcpy(sid, mark + 2, UUID_LEN + 1);
        memcpy(who, "*", 2);
        return 0;
    }
    if (len != 2 * UUID_LEN + 3 ||
        (strncmp(mark, STORE_CHANGE_MEMBER, 2) && strncmp(mark, STORE_CHANGE_INSTALL, 2)) ||
        mark[2 + UUID_LEN] != ':')
        return -1;
    memcpy(sid, mark + 2, UUID_LEN);
    sid[UUID_LEN] = '\0';
    memcpy(who, mark + 3 + UUID_LEN, UUID_LEN + 1);
    return 0;
}

int store__changes_begin(struct store *db)
{
    return store__track_changes(db, MARKS, sizeof MARKS / sizeof MARKS[0]);
}

int store_changes_pending(struct store *db)
{
    static const char *SQL = "SELECT EXISTS (SELECT 1 FROM praca_changed)";
    int seen = store__changes_seen(db);
    if (seen >= 0)
        return seen;
    struct store_stmt *st = store__query(db, SQL, NULL, 0);
    if (!st)
        return 1; /* unsure: treat as changed */
    int any = store__step(st) != STORE_ROW || store__int(st, 0) != 0;
    store__finish(st);
    return any;
}

/* The marks of a commit, but a server with more than 256 members or installs marked (a role
 * held by thousands deleted, the server itself deleted) is named once as "f:" and its ID: read
 * it again whole, rather than thousands of rows one by one. */
#define MARKED     "SELECT DISTINCT sid FROM praca_changed WHERE sid IS NOT NULL"
#define ONE_BY_ONE "(sid LIKE 'm:%' OR sid LIKE 'a:%')"
#define MANY_PER_SERVER                                                                            \
    "SELECT substr(sid, 3, 36) AS server FROM c WHERE " ONE_BY_ONE                                 \
    " GROUP BY 1 HAVING count(*) > 256"

static const char *SQL_TAKE = "WITH c AS (" MARKED "), many AS (" MANY_PER_SERVER ")"
                              " SELECT sid FROM c WHERE NOT (" ONE_BY_ONE
                              " AND substr(sid, 3, 36) IN (SELECT server FROM many))"
                              " UNION ALL SELECT 'f:' || server FROM many";

int store_changes_peek(struct store *db, void (*fn)(void *arg, const char *mark), void *arg)
{
    if (store__changes_seen(db) == 0)
        return STORE_DONE;
    struct store_stmt *st = store__query(db, SQL_TAKE, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW)
        fn(arg, text_or_empty(st, 0));
    store__finish(st);
    return rc < 0 ? rc : STORE_DONE;
}

int store__changes_take(struct store *db, void (*fn)(void *arg, const char *server_id), void *arg)
{

    static const char *SQL_FORGET = "DELETE FROM praca_changed";
    if (store__changes_seen(db) == 0)
        return STORE_DONE; /* nothing marked since the last take */
    store__changes_taken(db);
    struct store_stmt *st = store__query(db, SQL_TAKE, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc, any = 0;
    while ((rc = store__step(st)) == STORE_ROW) {
        any = 1;
        fn(arg, text_or_empty(st, 0));
    }
    store__finish(st);
    if (rc < 0)
        return rc;
    return any ? store__exec(db, SQL_FORGET, NULL, 0) : STORE_DONE;
}
