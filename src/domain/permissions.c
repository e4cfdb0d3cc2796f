/* Effective permissions: see permissions.h. */
#include "domain/permissions.h"

#include <string.h>

int rule_perm_valid(int64_t bits)
{
    return bits >= 0 && ((uint64_t)bits & ~PERM_ALL) == 0;
}

static uint64_t unrestricted(const struct perm_member *m, uint64_t *base)
{
    uint64_t bits = m->everyone;
    for (size_t i = 0; i < m->nroles; i++)
        bits |= m->roles[i];
    *base = bits;
    return m->is_owner || (bits & PERM_ADMINISTRADOR);
}

uint64_t rule_perm_base(const struct perm_member *m)
{
    uint64_t bits;
    if (unrestricted(m, &bits))
        return PERM_ALL;
    if (m->timed_out)
        bits &= PERM_VER_CANAL;
    return bits;
}

uint64_t rule_perm_channel(const struct perm_member *m, const struct perm_overwrites *ow)
{
    uint64_t bits;
    if (unrestricted(m, &bits))
        return PERM_ALL;
    bits = (bits & ~ow->everyone_deny) | ow->everyone_allow;
    bits = (bits & ~ow->roles_deny) | ow->roles_allow;
    bits = (bits & ~ow->member_deny) | ow->member_allow;
    if (!(bits & PERM_VER_CANAL))
        return 0;
    if (m->timed_out)
        bits &= PERM_VER_CANAL;
    return bits;
}

void rule_perm_overwrites_fold(const struct perm_overwrite *list, size_t n, const char *everyone_id,
                               const char *const *role_ids, size_t nroles, const char *user_id,
                               struct perm_overwrites *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        const struct perm_overwrite *o = &list[i];
        if (o->is_member) {
            if (strcmp(o->target_id, user_id) == 0) {
                out->member_allow = o->allow;
                out->member_deny = o->deny;
            }
            continue;
        }
        if (strcmp(o->target_id, everyone_id) == 0) {
            out->everyone_allow = o->allow;
            out->everyone_deny = o->deny;
            continue;
        }
        for (size_t r = 0; r < nroles; r++) {
            if (strcmp(o->target_id, role_ids[r]) == 0) {
                out->roles_allow |= o->allow;
                out->roles_deny |= o->deny;
                break;
            }
        }
    }
}

const char *rule_perm_name(uint64_t bit)
{
    static const char *names[] = {
        "ADMINISTRADOR",    "GERENCIAR_SERVIDOR", "GERENCIAR_CANAIS",    "GERENCIAR_CARGOS",
        "EXPULSAR_MEMBROS", "BANIR_MEMBROS",      "MODERAR_MEMBROS",     "CRIAR_CONVITE",
        "VER_CANAL",        "ENVIAR_MENSAGENS",   "GERENCIAR_MENSAGENS", "ADICIONAR_REACOES",
        "FIXAR_MENSAGENS",  "MENCIONAR_TODOS",    "CONECTAR_VOZ",        "FALAR",
        "USAR_COMANDOS",    "GERENCIAR_WEBHOOKS", "VER_AUDITORIA",
    };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (bit == (UINT64_C(1) << i))
            return names[i];
    return NULL;
}
