/* Effective permissions: owner, administrator, @everyone, roles, overwrites, timeouts. */
#include <criterion/criterion.h>

#include "domain/permissions.h"

static const char *EVERYONE = "srv";
static const char *ME = "me";

static uint64_t channel(const struct perm_member *m, const struct perm_overwrite *ow, size_t n,
                        const char *const *roles, size_t nroles)
{
    struct perm_overwrites folded;
    rule_perm_overwrites_fold(ow, n, EVERYONE, roles, nroles, ME, &folded);
    return rule_perm_channel(m, &folded);
}

Test(permissions, owner_has_everything_even_with_nothing_granted)
{
    struct perm_member m = {.is_owner = 1, .everyone = 0};
    cr_assert_eq(rule_perm_base(&m), PERM_ALL);
    struct perm_overwrite deny_all = {EVERYONE, 0, 0, PERM_ALL};
    cr_assert_eq(channel(&m, &deny_all, 1, NULL, 0), PERM_ALL);
}

Test(permissions, everyone_or_roles)
{
    uint64_t roles[] = {PERM_GERENCIAR_CANAIS, PERM_BANIR_MEMBROS};
    struct perm_member m = {.everyone = PERM_EVERYONE_DEFAULT, .roles = roles, .nroles = 2};
    cr_assert_eq(rule_perm_base(&m),
                 PERM_EVERYONE_DEFAULT | PERM_GERENCIAR_CANAIS | PERM_BANIR_MEMBROS);
}

Test(permissions, administrator_means_all_and_ignores_overwrites)
{
    uint64_t roles[] = {PERM_ADMINISTRADOR};
    struct perm_member m = {.everyone = 0, .roles = roles, .nroles = 1};
    cr_assert_eq(rule_perm_base(&m), PERM_ALL);
    struct perm_overwrite ow = {ME, 1, 0, PERM_VER_CANAL};
    cr_assert_eq(channel(&m, &ow, 1, NULL, 0), PERM_ALL);
}

Test(permissions, everyone_overwrite_then_roles_then_member)
{
    const char *role_ids[] = {"r1", "r2"};
    uint64_t roles[] = {0, 0};
    struct perm_member m = {.everyone = PERM_EVERYONE_DEFAULT, .roles = roles, .nroles = 2};
    /* @everyone loses sending; role r1 gets it back; the member overwrite takes reactions. */
    struct perm_overwrite ow[] = {
        {EVERYONE, 0, 0, PERM_ENVIAR_MENSAGENS},
        {"r1", 0, PERM_ENVIAR_MENSAGENS, 0},
        {ME, 1, 0, PERM_ADICIONAR_REACOES},
        {"other", 1, PERM_ALL, 0}, /* someone else's: ignored */
    };
    uint64_t p = channel(&m, ow, 4, role_ids, 2);
    cr_assert(p & PERM_ENVIAR_MENSAGENS);
    cr_assert(!(p & PERM_ADICIONAR_REACOES));
    cr_assert(p & PERM_VER_CANAL);
    cr_assert(!(p & PERM_GERENCIAR_CANAIS));
}

Test(permissions, role_allow_beats_role_deny_across_roles)
{
    const char *role_ids[] = {"a", "b"};
    uint64_t roles[] = {0, 0};
    struct perm_member m = {.everyone = PERM_EVERYONE_DEFAULT, .roles = roles, .nroles = 2};
    struct perm_overwrite ow[] = {{"a", 0, 0, PERM_FIXAR_MENSAGENS},
                                  {"b", 0, PERM_FIXAR_MENSAGENS, 0}};
    cr_assert(channel(&m, ow, 2, role_ids, 2) & PERM_FIXAR_MENSAGENS);
}

Test(permissions, member_deny_beats_role_allow)
{
    const char *role_ids[] = {"a"};
    uint64_t roles[] = {0};
    struct perm_member m = {.everyone = PERM_EVERYONE_DEFAULT, .roles = roles, .nroles = 1};
    struct perm_overwrite ow[] = {{"a", 0, PERM_FIXAR_MENSAGENS, 0},
                                  {ME, 1, 0, PERM_FIXAR_MENSAGENS}};
    cr_assert(!(channel(&m, ow, 2, role_ids, 1) & PERM_FIXAR_MENSAGENS));
}

Test(permissions, no_view_channel_means_nothing_in_it)
{
    struct perm_member m = {.everyone = PERM_EVERYONE_DEFAULT | PERM_GERENCIAR_MENSAGENS};
    struct perm_overwrite ow = {EVERYONE, 0, 0, PERM_VER_CANAL};
    cr_assert_eq(channel(&m, &ow, 1, NULL, 0), 0);
    /* ...but a member allow of VER_CANAL restores the rest. */
    struct perm_overwrite ow2[] = {{EVERYONE, 0, 0, PERM_VER_CANAL}, {ME, 1, PERM_VER_CANAL, 0}};
    cr_assert(channel(&m, ow2, 2, NULL, 0) & PERM_GERENCIAR_MENSAGENS);
}

Test(permissions, timeout_keeps_only_view)
{
    uint64_t roles[] = {PERM_GERENCIAR_MENSAGENS};
    struct perm_member m = {
        .timed_out = 1, .everyone = PERM_EVERYONE_DEFAULT, .roles = roles, .nroles = 1};
    cr_assert_eq(rule_perm_base(&m), PERM_VER_CANAL);
    cr_assert_eq(channel(&m, NULL, 0, NULL, 0), PERM_VER_CANAL);
}

Test(permissions, timeout_does_not_touch_owner_or_admin)
{
    struct perm_member owner = {.is_owner = 1, .timed_out = 1};
    cr_assert_eq(rule_perm_base(&owner), PERM_ALL);
    uint64_t roles[] = {PERM_ADMINISTRADOR};
    struct perm_member admin = {.timed_out = 1, .roles = roles, .nroles = 1};
    cr_assert_eq(rule_perm_base(&admin), PERM_ALL);
}

Test(permissions, valid_bits)
{
    cr_assert(rule_perm_valid(0));
    cr_assert(rule_perm_valid((int64_t)PERM_ALL));
    cr_assert(!rule_perm_valid((int64_t)PERM_ALL + 1));
    cr_assert(rule_perm_valid(1 << 18), "VER_AUDITORIA is the last bit");
    cr_assert(!rule_perm_valid(1 << 19), "bits above 18 are invalid");
    cr_assert(!rule_perm_valid(-1));
    cr_assert_str_eq(rule_perm_name(PERM_VER_CANAL), "VER_CANAL");
    cr_assert_str_eq(rule_perm_name(PERM_USAR_COMANDOS), "USAR_COMANDOS");
    cr_assert_str_eq(rule_perm_name(PERM_GERENCIAR_WEBHOOKS), "GERENCIAR_WEBHOOKS");
    cr_assert_str_eq(rule_perm_name(PERM_VER_AUDITORIA), "VER_AUDITORIA");
    cr_assert_null(rule_perm_name(PERM_VER_CANAL | PERM_FALAR));
}

Test(permissions, everyone_default_bits)
{
    cr_assert_eq(PERM_EVERYONE_DEFAULT, (1u << 8) | (1u << 9) | (1u << 11) | (1u << 7) |
                                            (1u << 14) | (1u << 15) | (1u << 16));
}
