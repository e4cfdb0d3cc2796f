/*
 * Permission bits and Discord's effective-permission computation, with no I/O.
 *
 * Server level: the owner has every bit; otherwise @everyone OR the member's roles, and
 * ADMINISTRADOR means every bit. Channel level, from the server-level bits: the @everyone
 * overwrite, then the OR of the member's role overwrites (deny, then allow), then the member's
 * own overwrite; without VER_CANAL nothing else is left. A member in timeout keeps only
 * VER_CANAL (owners and administrators are not affected).
 */
#ifndef PRACA_DOMAIN_PERMISSIONS_H
#define PRACA_DOMAIN_PERMISSIONS_H
#include <stddef.h>
#include <stdint.h>

#define PERM_ADMINISTRADOR       (UINT64_C(1) << 0)
#define PERM_GERENCIAR_SERVIDOR  (UINT64_C(1) << 1)
#define PERM_GERENCIAR_CANAIS    (UINT64_C(1) << 2)
#define PERM_GERENCIAR_CARGOS    (UINT64_C(1) << 3)
#define PERM_EXPULSAR_MEMBROS    (UINT64_C(1) << 4)
#define PERM_BANIR_MEMBROS       (UINT64_C(1) << 5)
#define PERM_MODERAR_MEMBROS     (UINT64_C(1) << 6)
#define PERM_CRIAR_CONVITE       (UINT64_C(1) << 7)
#define PERM_VER_CANAL           (UINT64_C(1) << 8)
#define PERM_ENVIAR_MENSAGENS    (UINT64_C(1) << 9)
#define PERM_GERENCIAR_MENSAGENS (UINT64_C(1) << 10)
#define PERM_ADICIONAR_REACOES   (UINT64_C(1) << 11)
#define PERM_FIXAR_MENSAGENS     (UINT64_C(1) << 12)
#define PERM_MENCIONAR_TODOS     (UINT64_C(1) << 13)
#define PERM_CONECTAR_VOZ        (UINT64_C(1) << 14)
#define PERM_FALAR               (UINT64_C(1) << 15)
#define PERM_USAR_COMANDOS       (UINT64_C(1) << 16)
#define PERM_GERENCIAR_WEBHOOKS  (UINT64_C(1) << 17)
#define PERM_VER_AUDITORIA       (UINT64_C(1) << 18)
#define PERM_ALL                 ((UINT64_C(1) << 19) - 1)

#define PERM_EVERYONE_DEFAULT                                                                      \
    (PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS | PERM_ADICIONAR_REACOES | PERM_CRIAR_CONVITE |        \
     PERM_CONECTAR_VOZ | PERM_FALAR | PERM_USAR_COMANDOS)

struct perm_member {
    int is_owner;
    int timed_out;         /* timeout_until is in the future */
    uint64_t everyone;     /* the @everyone role's bits */
    const uint64_t *roles; /* bits of each other role the member holds */
    size_t nroles;
};

/* A channel or a category holds at most this many overwrites (refused past it when written). */
#define PERM_OVERWRITES_MAX 100

/* One overwrite of a channel as stored. */
struct perm_overwrite {
    const char *target_id;
    int is_member; /* 0 = role overwrite */
    uint64_t allow, deny;
};

/* The overwrites of one channel that concern one member, folded. */
struct perm_overwrites {
    uint64_t everyone_allow, everyone_deny;
    uint64_t roles_allow, roles_deny;
    uint64_t member_allow, member_deny;
};

/* 1 when bits hold only known permission bits. */
int rule_perm_valid(int64_t bits);
uint64_t rule_perm_base(const struct perm_member *m);
uint64_t rule_perm_channel(const struct perm_member *m, const struct perm_overwrites *ow);
/* Folds a channel's overwrites for a member: everyone_id is the @everyone role's ID, role_ids
 * the member's other roles, user_id the member. */
void rule_perm_overwrites_fold(const struct perm_overwrite *list, size_t n, const char *everyone_id,
                               const char *const *role_ids, size_t nroles, const char *user_id,
                               struct perm_overwrites *out);
/* Name of a single bit ("VER_CANAL"), or NULL. */
const char *rule_perm_name(uint64_t bit);

#endif
