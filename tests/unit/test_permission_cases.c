/*
 * The server's permission rule on the shared cases of tests/cases/permissions.json, which the
 * page's rule (chat-perms.js) is tested on too (tests/e2e/client_perms.test.js).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#include "domain/permissions.h"

#define CASES_FILE "tests/cases/permissions.json"
#define ROLES_MAX  16
#define OW_MAX     16

/* Bits by name: a permission's, "DEFAULT" (@everyone's) or "ALL". */
static uint64_t bits_of(json_t *names)
{
    uint64_t bits = 0;
    size_t i;
    json_t *n;
    json_array_foreach(names, i, n)
    {
        const char *name = json_string_value(n);
        cr_assert_not_null(name);
        if (!strcmp(name, "ALL"))
            bits |= PERM_ALL;
        else if (!strcmp(name, "DEFAULT"))
            bits |= PERM_EVERYONE_DEFAULT;
        else {
            uint64_t bit = 0;
            for (int b = 0; b < 19 && !bit; b++)
                if (!strcmp(rule_perm_name(UINT64_C(1) << b), name))
                    bit = UINT64_C(1) << b;
            cr_assert_neq(bit, 0, "unknown permission %s", name);
            bits |= bit;
        }
    }
    return bits;
}

static void run_case(json_t *c)
{
    const char *name = json_string_value(json_object_get(c, "name"));
    json_t *roles = json_object_get(c, "roles"), *ows = json_object_get(c, "overwrites");
    uint64_t role_bits[ROLES_MAX];
    const char *role_ids[ROLES_MAX];
    size_t nroles = json_array_size(roles), now = json_array_size(ows);
    cr_assert_leq(nroles, ROLES_MAX);
    cr_assert_leq(now, OW_MAX);
    for (size_t i = 0; i < nroles; i++) {
        json_t *r = json_array_get(roles, i);
        role_ids[i] = json_string_value(json_object_get(r, "id"));
        role_bits[i] = bits_of(json_object_get(r, "permissions"));
    }
    struct perm_overwrite ow[OW_MAX];
    for (size_t i = 0; i < now; i++) {
        json_t *o = json_array_get(ows, i);
        ow[i] = (struct perm_overwrite){
            json_string_value(json_object_get(o, "targetId")),
            !strcmp(json_string_value(json_object_get(o, "type")), "member"),
            bits_of(json_object_get(o, "allow")), bits_of(json_object_get(o, "deny"))};
    }
    struct perm_member m = {.is_owner = json_is_true(json_object_get(c, "owner")),
                            .timed_out = json_is_true(json_object_get(c, "timedOut")),
                            .everyone = bits_of(json_object_get(c, "everyone")),
                            .roles = role_bits,
                            .nroles = nroles};
    cr_assert_eq(rule_perm_base(&m), bits_of(json_object_get(c, "base")), "%s: base", name);
    struct perm_overwrites folded;
    rule_perm_overwrites_fold(ow, now, "srv", role_ids, nroles, "me", &folded);
    cr_assert_eq(rule_perm_channel(&m, &folded), bits_of(json_object_get(c, "channel")),
                 "%s: channel", name);
}

Test(permission_cases, the_server_rule_answers_every_shared_case)
{
    json_error_t err;
    json_t *doc = json_load_file(CASES_FILE, 0, &err);
    cr_assert_not_null(doc, "%s: %s", CASES_FILE, err.text);
    json_t *cases = json_object_get(doc, "cases");
    cr_assert_geq(json_array_size(cases), 10);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) run_case(c);
    json_decref(doc);
}
