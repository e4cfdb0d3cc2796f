/* Who may use a command: defaults, overrides by channel, member and role, and their order. */
#include <criterion/criterion.h>

#include "domain/command_access.h"
#include "domain/locales.h"
#include "domain/permissions.h"

#define SID   "0190a000-0000-7000-8000-000000000000"
#define UID   "0190a000-0000-7000-8000-000000000001"
#define CID   "0190a000-0000-7000-8000-000000000002"
#define ROLE  "0190a000-0000-7000-8000-000000000003"
#define ROLE2 "0190a000-0000-7000-8000-000000000004"

static const char *const ROLES[] = {ROLE, ROLE2};

static struct command_asker asker(uint64_t perms)
{
    return (struct command_asker){.server_id = SID,
                                  .user_id = UID,
                                  .channel_id = CID,
                                  .role_ids = ROLES,
                                  .nroles = 2,
                                  .perms = perms};
}

static int permitted(uint64_t perms, int64_t def, const char *overrides)
{
    struct command_asker a = asker(perms);
    json_t *o = overrides ? json_loads(overrides, 0, NULL) : NULL;
    int r = rule_command_permitted(&a, def, o);
    json_decref(o);
    return r;
}

Test(command_access, defaults)
{
    cr_assert(permitted(0, -1, NULL), "no default: everyone");
    cr_assert_not(permitted(PERM_ALL & ~PERM_ADMINISTRADOR, 0, NULL), "0: admins only");
    cr_assert(permitted(PERM_EXPULSAR_MEMBROS | PERM_VER_CANAL, PERM_EXPULSAR_MEMBROS, NULL));
    cr_assert_not(
        permitted(PERM_EXPULSAR_MEMBROS, PERM_EXPULSAR_MEMBROS | PERM_BANIR_MEMBROS, NULL),
        "every bit of the default");
    struct command_asker admin = asker(0);
    admin.is_admin = 1;
    cr_assert(rule_command_permitted(&admin, 0, NULL));
    json_t *deny =
        json_loads("[{\"type\":\"member\",\"id\":\"" UID "\",\"allow\":false}]", 0, NULL);
    cr_assert(rule_command_permitted(&admin, -1, deny), "admins keep every command");
    json_decref(deny);
}

Test(command_access, overrides_in_order)
{
    /* a role allow replaces the default */
    cr_assert(permitted(0, 0, "[{\"type\":\"role\",\"id\":\"" ROLE2 "\",\"allow\":true}]"));
    /* one role allowing wins over another denying */
    cr_assert(permitted(0, -1,
                        "[{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":false},"
                        "{\"type\":\"role\",\"id\":\"" ROLE2 "\",\"allow\":true}]"));
    cr_assert_not(permitted(0, -1, "[{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":false}]"));
    /* the member's own override beats the roles' */
    cr_assert_not(permitted(0, -1,
                            "[{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":true},"
                            "{\"type\":\"member\",\"id\":\"" UID "\",\"allow\":false}]"));
    cr_assert(permitted(0, 0, "[{\"type\":\"member\",\"id\":\"" UID "\",\"allow\":true}]"));
    /* a channel denied refuses whatever else allows; allowed, it leaves the rest to decide */
    cr_assert_not(permitted(0, -1,
                            "[{\"type\":\"channel\",\"id\":\"" CID "\",\"allow\":false},"
                            "{\"type\":\"member\",\"id\":\"" UID "\",\"allow\":true}]"));
    cr_assert_not(permitted(0, 0, "[{\"type\":\"channel\",\"id\":\"" CID "\",\"allow\":true}]"));
    /* @everyone (the server's ID) comes after the member's roles */
    cr_assert_not(permitted(0, -1, "[{\"type\":\"role\",\"id\":\"" SID "\",\"allow\":false}]"));
    cr_assert(permitted(0, -1,
                        "[{\"type\":\"role\",\"id\":\"" SID "\",\"allow\":false},"
                        "{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":true}]"));
    /* another channel's override does not apply here, nor any channel's to the server as a whole */
    cr_assert(permitted(0, -1, "[{\"type\":\"channel\",\"id\":\"" ROLE2 "\",\"allow\":false}]"));
    struct command_asker whole = asker(0);
    whole.channel_id = NULL;
    json_t *o = json_loads("[{\"type\":\"channel\",\"id\":\"" CID "\",\"allow\":false}]", 0, NULL);
    cr_assert(rule_command_permitted(&whole, -1, o));
    json_decref(o);
}

static void overrides_refused(const char *json, const char *path, const char *reason)
{
    json_t *in = json_loads(json, 0, NULL);
    struct rule_error err = {0};
    cr_assert_null(rule_command_clean_overrides(in, &err), "%s", json);
    cr_assert_str_eq(err.path, path, "%s", json);
    cr_assert(strstr(err.reason, reason), "%s: %s", json, err.reason);
    json_decref(in);
}

Test(command_access, clean_overrides)
{
    json_t *in =
        json_loads("[{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":true,\"x\":1}]", 0, NULL);
    struct rule_error err = {0};
    json_t *out = rule_command_clean_overrides(in, &err);
    cr_assert_not_null(out);
    cr_assert_eq(json_object_size(json_array_get(out, 0)), 3, "unknown fields dropped");
    json_decref(out);
    json_decref(in);
    overrides_refused("{}", "permissions", "lista");
    overrides_refused("[{\"type\":\"cargo\",\"id\":\"" ROLE "\",\"allow\":true}]",
                      "permissions.0.type", "role, member ou channel");
    overrides_refused("[{\"type\":\"role\",\"id\":\"x\",\"allow\":true}]", "permissions.0.id",
                      "ID");
    overrides_refused("[{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":1}]",
                      "permissions.0.allow", "verdadeiro ou falso");
    overrides_refused("[{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":true},"
                      "{\"type\":\"role\",\"id\":\"" ROLE "\",\"allow\":false}]",
                      "permissions.1", "repetido");
    json_t *many = json_array();
    for (int i = 0; i <= CMD_OVERRIDES_MAX; i++) {
        char id[40];
        snprintf(id, sizeof id, "0190a000-0000-7000-8000-%012d", i);
        json_array_append_new(many, json_pack("{sssssb}", "type", "member", "id", id, "allow", 1));
    }
    cr_assert_null(rule_command_clean_overrides(many, &err));
    json_array_remove(many, 0);
    out = rule_command_clean_overrides(many, &err);
    cr_assert_not_null(out, "exactly 100");
    json_decref(out);
    json_decref(many);
}

Test(command_access, locales)
{
    cr_assert_str_eq(rule_locale_known("EN-us"), "en-US");
    cr_assert_null(rule_locale_known("en"));
    cr_assert_null(rule_locale_known(NULL));
    json_t *map = json_loads("{\"en-US\":\"city\",\"es-419\":\"ciudad\"}", 0, NULL);
    cr_assert_str_eq(rule_locale_pick(map, "en-US"), "city");
    cr_assert_str_eq(rule_locale_pick(map, "es-ES"), "ciudad", "same language");
    cr_assert_str_eq(rule_locale_pick(map, "en-GB"), "city");
    cr_assert_null(rule_locale_pick(map, "fr"));
    cr_assert_null(rule_locale_pick(map, ""));
    cr_assert_null(rule_locale_pick(NULL, "en-US"));
    json_decref(map);
}
