/* Web Push's rows: see web_push.h. */
#include "store/web_push.h"

#include <string.h>

#include "core/crypto.h"
#include "store/rows.h"
#include "store/servers.h"

/* base64url of a key pair's halves. */
struct vapid_text {
    char priv[WEBPUSH_PRIVATE_LEN * 4 / 3 + 4], pub[WEBPUSH_PUBLIC_LEN * 4 / 3 + 4];
};

static int vapid_fresh(struct vapid_text *t)
{
    struct webpush_keys k;
    if (webpush_keys_new(&k))
        return STORE_ERR;
    crypto_base64url(k.priv, sizeof k.priv, t->priv);
    crypto_base64url(k.pub, sizeof k.pub, t->pub);
    return STORE_DONE;
}

int store_vapid_ensure(struct store *db, int64_t now)
{
    struct vapid_text t;
    if (vapid_fresh(&t))
        return STORE_ERR;
    return store__exec(db,
                       "INSERT INTO vapid_keys (id, private_key, public_key, created_at)"
                       " VALUES (1, $1, $2, $3) ON CONFLICT DO NOTHING",
                       SV_ARGS(SV_STR(t.priv), SV_STR(t.pub), SV_INT(now)));
}

int store_vapid_rotate(struct store *db, int64_t now)
{
    struct vapid_text t;
    if (vapid_fresh(&t) || store__exec(db, "DELETE FROM vapid_keys", NULL, 0) != STORE_DONE ||
        store__exec(db, "DELETE FROM push_subscriptions", NULL, 0) != STORE_DONE)
        return STORE_ERR;
    return store__exec(db,
                       "INSERT INTO vapid_keys (id, private_key, public_key, created_at)"
                       " VALUES (1, $1, $2, $3)",
                       SV_ARGS(SV_STR(t.priv), SV_STR(t.pub), SV_INT(now)));
}

static int decode_exact(const char *text, unsigned char *out, size_t len)
{
    return text && crypto_base64url_decode(text, strlen(text), out, len) == (int)len ? 0 : -1;
}

int store_vapid_read(struct store *db, struct webpush_keys *out)
{
    struct store_stmt *st =
        store__query(db, "SELECT private_key FROM vapid_keys WHERE id = 1", NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    unsigned char priv[WEBPUSH_PRIVATE_LEN];
    if (rc == STORE_ROW)
        rc = !decode_exact(store__text(st, 0), priv, sizeof priv) &&
                     !webpush_keys_from_private(priv, out)
                 ? STORE_DONE
                 : STORE_ERR;
    else if (rc == STORE_DONE)
        rc = STORE_MISSING;
    store__finish(st);
    return rc;
}

/* --- subscriptions --- */

struct sub_put {
    const char *uid, *endpoint, *p256dh, *auth;
    int64_t now;
};

static int sub_put_at(struct store *db, struct sub_put *p)
{
    char id[UUID_LEN + 1];
    uuid_v7(id);
    int rc = store__exec(db,
                         "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth,"
                         " created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (endpoint)"
                         " DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,"
                         " auth = excluded.auth, created_at = excluded.created_at",
                         SV_ARGS(SV_STR(id), SV_STR(p->uid), SV_STR(p->endpoint), SV_STR(p->p256dh),
                                 SV_STR(p->auth), SV_INT(p->now)));
    if (rc != STORE_DONE)
        return rc;
    /* The newest STORE_PUSH_DEVICES_MAX stay. */
    return store__exec(db,
                       "DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN"
                       " (SELECT id FROM push_subscriptions WHERE user_id = $1"
                       " ORDER BY created_at DESC, id DESC LIMIT $2)",
                       SV_ARGS(SV_STR(p->uid), SV_INT(STORE_PUSH_DEVICES_MAX)));
}

static int sub_put_job(struct store *db, void *arg)
{
    return sub_put_at(db, arg);
}

int store_push_sub_put(struct store_writer *w, const char *uid, const char *endpoint,
                       const char *p256dh, const char *auth, int64_t now)
{
    struct sub_put p = {uid, endpoint, p256dh, auth, now};
    return store_write(w, sub_put_job, &p);
}

int store_push_sub_delete(struct store_writer *w, const char *uid, const char *endpoint,
                          int64_t *deleted)
{
    return store__write_exec(w,
                             "DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2",
                             SV_ARGS(SV_STR(uid), SV_STR(endpoint)), deleted);
}

int store_push_subs_forget(struct store_writer *w, const char *uid)
{
    return store__write_exec(w, "DELETE FROM push_subscriptions WHERE user_id = $1",
                             SV_ARGS(SV_STR(uid)), NULL);
}

int store_push_sub_gone(struct store_writer *w, const char *endpoint)
{
    return store__write_exec(w, "DELETE FROM push_subscriptions WHERE endpoint = $1",
                             SV_ARGS(SV_STR(endpoint)), NULL);
}

int64_t store_push_subs_total(struct store *db)
{
    return store__number(db, "SELECT COUNT(*) FROM push_subscriptions", NULL);
}

static const struct store_col SUB_COLS[] = {
    {"endpoint", COL_TEXT},
    {"createdAt", COL_TIME},
};

json_t *store_push_subs_json(struct store *db, const char *uid)
{
    return store__list_json(db,
                            "SELECT endpoint, created_at FROM push_subscriptions"
                            " WHERE user_id = $1 ORDER BY created_at DESC, id DESC",
                            SV_ARGS(SV_STR(uid)), STORE_COLS(SUB_COLS));
}

long store_push_subs_of(struct store *db, const char *uid,
                        void (*fn)(void *arg, const struct store_push_sub *s), void *arg)
{
    struct store_stmt *st =
        store__query(db, "SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1",
                     SV_ARGS(SV_STR(uid)));
    if (!st)
        return STORE_ERR;
    struct store_push_sub s;
    memcpy(s.user_id, uid, sizeof s.user_id);
    long n = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        if (store__text_copy(st, 0, s.endpoint, sizeof s.endpoint) ||
            decode_exact(store__text(st, 1), s.p256dh, sizeof s.p256dh) ||
            decode_exact(store__text(st, 2), s.auth, sizeof s.auth))
            continue;
        fn(arg, &s);
        n++;
    }
    store__finish(st);
    return rc == STORE_DONE ? n : rc;
}

long store_push_people_in(struct store *db, const char *sid, const char *cid, int members_too,
                          void (*fn)(void *arg, const char *uid), void *arg)
{
    static const char *MEMBERS = "SELECT DISTINCT s.user_id FROM push_subscriptions s"
                                 " JOIN members m ON m.user_id = s.user_id AND m.server_id = $1";
    static const char *ALL = "SELECT DISTINCT user_id FROM notification_settings"
                             " WHERE scope_id IN ($1, $2) AND level = 'all'";
    struct store_stmt *st = members_too ? store__query(db, MEMBERS, SV_ARGS(SV_STR(sid)))
                                        : store__query(db, ALL, SV_ARGS(SV_STR(sid), SV_STR(cid)));
    if (!st)
        return STORE_ERR;
    long n = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        const char *uid = store__text(st, 0);
        if (uid && strlen(uid) == UUID_LEN) {
            fn(arg, uid);
            n++;
        }
    }
    store__finish(st);
    return rc == STORE_DONE ? n : rc;
}

/* The first column of the row sql finds for a and b (b may be unused), copied; "" when none. */
static int name_of(struct store *db, const char *sql, const char *a, const char *b, char *out,
                   size_t cap)
{
    out[0] = '\0';
    struct store_stmt *st = b ? store__query(db, sql, SV_ARGS(SV_STR(a), SV_STR(b)))
                              : store__query(db, sql, SV_ARGS(SV_STR(a)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        const char *text = store__text(st, 0);
        size_t len = text ? strlen(text) : 0;
        if (len >= cap) /* cut at a character's start */
            for (len = cap - 1; len && ((unsigned char)text[len] & 0xc0) == 0x80; len--)
                ;
        memcpy(out, text ? text : "", len);
        out[len] = '\0';
        rc = STORE_DONE;
    }
    store__finish(st);
    return rc;
}

int store_push_names(struct store *db, const char *author, const char *sid, const char *room,
                     struct store_push_names *out)
{
    static const char *AUTHOR = "SELECT COALESCE(m.nickname, u.display_name) FROM users u"
                                " LEFT JOIN members m ON m.user_id = u.id AND m.server_id = $2"
                                " WHERE u.id = $1";
    int rc = name_of(db, AUTHOR, author, sid ? sid : "", out->author, sizeof out->author);
    if (rc == STORE_DONE && sid)
        rc = name_of(db, "SELECT name FROM servers WHERE id = $1", sid, NULL, out->server,
                     sizeof out->server);
    else
        out->server[0] = '\0';
    if (rc == STORE_DONE)
        rc = name_of(db, "SELECT name FROM channels WHERE id = $1", room, NULL, out->room,
                     sizeof out->room);
    return rc;
}

/* --- notification settings --- */

int store_notify_setting(struct store *db, const char *uid, const char *scope,
                         struct notify_setting *out)
{
    *out = (struct notify_setting){0};
    struct store_stmt *st = store__query(
        db,
        "SELECT level, muted_until, suppress_everyone, suppress_roles FROM notification_settings"
        " WHERE user_id = $1 AND scope_id = $2",
        SV_ARGS(SV_STR(uid), SV_STR(scope)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        int level = rule_notify_level_parse(store__text(st, 0));
        out->level = level < 0 ? NOTIFY_DEFAULT : (enum notify_level)level;
        out->muted_until = store__int(st, 1);
        out->suppress_everyone = store__int(st, 2) != 0;
        out->suppress_roles = store__int(st, 3) != 0;
        rc = STORE_DONE;
    }
    store__finish(st);
    return rc;
}

int store_notify_setting_put(struct store_writer *w, const char *uid, const char *scope,
                             const struct notify_setting *s)
{
    if (s->level == NOTIFY_DEFAULT && !s->muted_until && !s->suppress_everyone &&
        !s->suppress_roles)
        return store__write_exec(w,
                                 "DELETE FROM notification_settings WHERE user_id = $1"
                                 " AND scope_id = $2",
                                 SV_ARGS(SV_STR(uid), SV_STR(scope)), NULL);
    return store__write_exec(
        w,
        "INSERT INTO notification_settings (user_id, scope_id, level, muted_until,"
        " suppress_everyone, suppress_roles) VALUES ($1, $2, $3, $4, $5, $6)"
        " ON CONFLICT (user_id, scope_id) DO UPDATE SET level = excluded.level,"
        " muted_until = excluded.muted_until, suppress_everyone = excluded.suppress_everyone,"
        " suppress_roles = excluded.suppress_roles",
        SV_ARGS(SV_STR(uid), SV_STR(scope), SV_STR(rule_notify_level_name(s->level)),
                SV_INT(s->muted_until), SV_INT(s->suppress_everyone), SV_INT(s->suppress_roles)),
        NULL);
}

json_t *store_notify_settings_json(struct store *db, const char *uid)
{
    struct store_stmt *st =
        store__query(db,
                     "SELECT scope_id, level, muted_until, suppress_everyone, suppress_roles"
                     " FROM notification_settings WHERE user_id = $1 ORDER BY scope_id",
                     SV_ARGS(SV_STR(uid)));
    if (!st)
        return NULL;
    json_t *all = json_object();
    int rc;
    while (all && (rc = store__step(st)) == STORE_ROW) {
        int64_t until = store__int(st, 2);
        json_object_set_new(all, store__text(st, 0),
                            json_pack("{sssIsbsb}", "level", store__text(st, 1), "mutedUntil",
                                      (json_int_t)until, "suppressEveryone", store__int(st, 3) != 0,
                                      "suppressRoles", store__int(st, 4) != 0));
    }
    store__finish(st);
    if (all && rc != STORE_DONE) {
        json_decref(all);
        return NULL;
    }
    return all;
}

int64_t store_notify_settings_count(struct store *db, const char *uid)
{
    int64_t n = 0;
    int rc =
        store_count(db, "SELECT COUNT(*) FROM notification_settings WHERE user_id = $1", uid, &n);
    return rc == STORE_DONE ? n : rc;
}
