/*
 * Persistent maps: see pmap.h. Each node holds up to 32 slots, one per 5 bits of the key's hash
 * at its depth; a slot is an entry (hash, value) or a child node. Past 64 bits of hash a node is
 * a plain list of the keys whose hashes are equal (a collision node). A node reached by more than
 * one map has more than one reference and is copied before it changes (copy on write, top down,
 * so a copy's children gain a reference before the path below them is looked at).
 */
#include "core/pmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/vec.h"

#define BITS      5
#define HASH_BITS 64

struct slot {
    struct pmap_node *node; /* a child, or NULL for an entry */
    struct pmap_value *value;
    uint64_t hash;
};

struct pmap_node {
    atomic_int refs;
    uint32_t bitmap; /* the branches in use, in slot order; unused in a collision node */
    uint32_t n, cap;
    struct slot slots[];
};

static uint64_t hash_of(const char *key)
{
    uint64_t h = 1469598103934665603u;
    while (*key)
        h = (h ^ (unsigned char)*key++) * 1099511628211u;
    h ^= h >> 33; /* spread the low bits: each level reads 5 of them */
    h *= 0xff51afd7ed558ccdu;
    return h ^ (h >> 33);
}

static uint32_t branch(uint64_t hash, unsigned shift)
{
    return 1u << ((hash >> shift) & 31);
}

static uint32_t position(uint32_t bitmap, uint32_t bit)
{
    return (uint32_t)__builtin_popcount(bitmap & (bit - 1));
}

struct pmap_value *pmap_value_ref(struct pmap_value *v)
{
    atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
    return v;
}

void pmap_value_unref(struct pmap_value *v)
{
    if (v && atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) == 1)
        v->release(v);
}

static struct pmap_node *node_new(uint32_t cap)
{
    struct pmap_node *n = malloc(sizeof *n + cap * sizeof n->slots[0]);
    if (!n)
        return NULL;
    atomic_init(&n->refs, 1);
    n->bitmap = 0;
    n->n = 0;
    n->cap = cap;
    return n;
}

static void node_unref(struct pmap_node *n)
{
    if (!n || atomic_fetch_sub_explicit(&n->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (uint32_t i = 0; i < n->n; i++) {
        if (n->slots[i].node)
            node_unref(n->slots[i].node);
        else
            pmap_value_unref(n->slots[i].value);
    }
    free(n);
}

/* Makes *pp safe to change: itself when only this path reaches it, else a copy that takes the
 * path's reference. 0, or -1 when out of memory (*pp unchanged). */
static int editable(struct pmap_node **pp)
{
    struct pmap_node *n = *pp;
    if (atomic_load_explicit(&n->refs, memory_order_acquire) == 1)
        return 0;
    struct pmap_node *c = node_new(n->n + 1);
    if (!c)
        return -1;
    c->bitmap = n->bitmap;
    c->n = n->n;
    memcpy(c->slots, n->slots, n->n * sizeof n->slots[0]);
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->slots[i].node)
            atomic_fetch_add_explicit(&c->slots[i].node->refs, 1, memory_order_relaxed);
        else
            pmap_value_ref(c->slots[i].value);
    }
    node_unref(n);
    *pp = c;
    return 0;
}

/* Room for one more slot in an editable node. */
static int room(struct pmap_node **pp)
{
    struct pmap_node *n = *pp;
    if (n->n < n->cap)
        return 0;
    uint32_t cap = n->cap ? n->cap * 2 : 1;
    struct pmap_node *g = realloc(n, sizeof *n + cap * sizeof n->slots[0]);
    if (!g)
        return -1;
    g->cap = cap;
    *pp = g;
    return 0;
}

static void insert_slot(struct pmap_node *n, uint32_t at, struct slot s)
{
    memmove(&n->slots[at + 1], &n->slots[at], (n->n - at) * sizeof s);
    n->slots[at] = s;
    n->n++;
}

static void remove_slot(struct pmap_node *n, uint32_t at)
{
    memmove(&n->slots[at], &n->slots[at + 1], (n->n - at - 1) * sizeof n->slots[0]);
    n->n--;
}

/* Frees a chain made by pair() that was never linked (its entries are not its own). */
static void free_chain(struct pmap_node *n)
{
    while (n) {
        struct pmap_node *next = n->n == 1 ? n->slots[0].node : NULL;
        free(n);
        n = next;
    }
}

/* A subtree at shift holding entries a and b (hashes differing somewhere, or equal: then a
 * collision node at the end of the hash). NULL when out of memory. */
static struct pmap_node *pair(struct slot a, struct slot b, unsigned shift)
{
    if (shift >= HASH_BITS) {
        struct pmap_node *n = node_new(2);
        if (n) {
            n->slots[0] = a;
            n->slots[1] = b;
            n->n = 2;
        }
        return n;
    }
    uint32_t ba = branch(a.hash, shift), bb = branch(b.hash, shift);
    if (ba == bb) {
        struct pmap_node *child = pair(a, b, shift + BITS);
        struct pmap_node *n = child ? node_new(1) : NULL;
        if (!n) {
            free_chain(child);
            return NULL;
        }
        n->bitmap = ba;
        n->slots[0] = (struct slot){child, NULL, 0};
        n->n = 1;
        return n;
    }
    struct pmap_node *n = node_new(2);
    if (!n)
        return NULL;
    n->bitmap = ba | bb;
    n->slots[ba < bb ? 0 : 1] = a;
    n->slots[ba < bb ? 1 : 0] = b;
    n->n = 2;
    return n;
}

static int same_key(const struct pmap *m, const struct slot *s, uint64_t hash, const char *key)
{
    return s->hash == hash && !strcmp(m->key(s->value), key);
}

/* Puts v into the editable subtree *pp at shift; *added 1 when the key is new. */
static int put(const struct pmap *m, struct pmap_node **pp, uint64_t hash, const char *key,
               struct pmap_value *v, unsigned shift, int *added)
{
    struct pmap_node *n = *pp;
    struct slot entry = {NULL, v, hash};
    if (shift >= HASH_BITS) {
        for (uint32_t i = 0; i < n->n; i++)
            if (same_key(m, &n->slots[i], hash, key)) {
                pmap_value_unref(n->slots[i].value);
                n->slots[i].value = pmap_value_ref(v);
                return 0;
            }
        if (room(pp))
            return -1;
        insert_slot(*pp, (*pp)->n, entry);
        pmap_value_ref(v);
        *added = 1;
        return 0;
    }
    uint32_t bit = branch(hash, shift), at = position(n->bitmap, bit);
    if (!(n->bitmap & bit)) {
        if (room(pp))
            return -1;
        n = *pp;
        insert_slot(n, at, entry);
        n->bitmap |= bit;
        pmap_value_ref(v);
        *added = 1;
        return 0;
    }
    struct slot *s = &n->slots[at];
    if (s->node)
        return editable(&s->node) ? -1 : put(m, &s->node, hash, key, v, shift + BITS, added);
    if (same_key(m, s, hash, key)) {
        pmap_value_unref(s->value);
        s->value = pmap_value_ref(v);
        return 0;
    }
    struct pmap_node *child = pair(*s, entry, shift + BITS);
    if (!child)
        return -1;
    *s = (struct slot){child, NULL, 0};
    pmap_value_ref(v);
    *added = 1;
    return 0;
}

/* Removes key (known to be present) from the editable subtree *pp at shift. */
static int del(const struct pmap *m, struct pmap_node **pp, uint64_t hash, const char *key,
               unsigned shift)
{
    struct pmap_node *n = *pp;
    if (shift >= HASH_BITS) {
        for (uint32_t i = 0; i < n->n; i++)
            if (same_key(m, &n->slots[i], hash, key)) {
                pmap_value_unref(n->slots[i].value);
                remove_slot(n, i);
                return 0;
            }
        return 0;
    }
    uint32_t bit = branch(hash, shift), at = position(n->bitmap, bit);
    struct slot *s = &n->slots[at];
    if (!s->node) {
        pmap_value_unref(s->value);
        remove_slot(n, at);
        n->bitmap &= ~bit;
        return 0;
    }
    if (editable(&s->node) || del(m, &s->node, hash, key, shift + BITS))
        return -1;
    struct pmap_node *child = s->node;
    if (child->n == 1 && !child->slots[0].node) { /* a lone entry moves up */
        *s = child->slots[0];
        free(child);
    }
    return 0;
}

void pmap_init(struct pmap *m, pmap_key_fn key)
{
    m->root = NULL;
    m->count = 0;
    m->key = key;
}

void pmap_cleanup(struct pmap *m)
{
    node_unref(m->root);
    m->root = NULL;
    m->count = 0;
}

struct pmap pmap_copy(const struct pmap *m)
{
    if (m->root)
        atomic_fetch_add_explicit(&m->root->refs, 1, memory_order_relaxed);
    return *m;
}

struct pmap_value *pmap_get(const struct pmap *m, const char *key)
{
    uint64_t hash = hash_of(key);
    const struct pmap_node *n = m->root;
    for (unsigned shift = 0; n; shift += BITS) {
        if (shift >= HASH_BITS) {
            for (uint32_t i = 0; i < n->n; i++)
                if (same_key(m, &n->slots[i], hash, key))
                    return n->slots[i].value;
            return NULL;
        }
        uint32_t bit = branch(hash, shift);
        if (!(n->bitmap & bit))
            return NULL;
        const struct slot *s = &n->slots[position(n->bitmap, bit)];
        if (!s->node)
            return same_key(m, s, hash, key) ? s->value : NULL;
        n = s->node;
    }
    return NULL;
}

int pmap_put(struct pmap *m, struct pmap_value *v)
{
    const char *key = m->key(v);
    if (!m->root && !(m->root = node_new(2)))
        return -1;
    int added = 0;
    if (editable(&m->root) || put(m, &m->root, hash_of(key), key, v, 0, &added))
        return -1;
    m->count += (size_t)added;
    return 0;
}

int pmap_del(struct pmap *m, const char *key)
{
    if (!pmap_get(m, key))
        return 0;
    if (editable(&m->root) || del(m, &m->root, hash_of(key), key, 0))
        return -1;
    m->count--;
    if (!m->count)
        pmap_cleanup(m);
    return 1;
}

static void each(const struct pmap_node *n, void (*fn)(struct pmap_value *, void *), void *arg)
{
    for (uint32_t i = 0; i < n->n; i++) {
        if (n->slots[i].node)
            each(n->slots[i].node, fn, arg);
        else
            fn(n->slots[i].value, arg);
    }
}

void pmap_each(const struct pmap *m, void (*fn)(struct pmap_value *v, void *arg), void *arg)
{
    if (m->root)
        each(m->root, fn, arg);
}

/* ---- diff ---- */

struct values {
    struct pmap_value **v;
    size_t n, cap;
    int failed;
};

static void collect(struct pmap_value *v, void *arg)
{
    struct values *l = arg;
    if (!l->failed && VEC_RESERVE(l->v, l->n, l->cap, 8))
        l->failed = 1;
    else if (!l->failed)
        l->v[l->n++] = v;
}

static void collect_slot(const struct slot *s, struct values *l)
{
    if (s && s->node)
        each(s->node, collect, l);
    else if (s)
        collect(s->value, l);
}

/* Two small subtrees of different make (an entry against a node, or collision nodes), key by
 * key: they hold the few keys that share a long prefix of hash. */
static int diff_by_key(const struct pmap *m, const struct slot *a, const struct slot *b,
                       pmap_diff_fn fn, void *arg)
{
    struct values la = {0}, lb = {0};
    collect_slot(a, &la);
    collect_slot(b, &lb);
    int rc = la.failed || lb.failed ? -1 : 0;
    for (size_t i = 0; !rc && i < la.n; i++) {
        size_t j = 0;
        while (j < lb.n && (!lb.v[j] || strcmp(m->key(la.v[i]), m->key(lb.v[j]))))
            j++;
        if (j == lb.n) {
            fn(la.v[i], NULL, arg);
        } else {
            if (la.v[i] != lb.v[j])
                fn(la.v[i], lb.v[j], arg);
            lb.v[j] = NULL;
        }
    }
    for (size_t j = 0; !rc && j < lb.n; j++)
        if (lb.v[j])
            fn(NULL, lb.v[j], arg);
    free(la.v);
    free(lb.v);
    return rc;
}

static int diff(const struct pmap *m, const struct slot *a, const struct slot *b, unsigned shift,
                pmap_diff_fn fn, void *arg)
{
    if (a && b && a->node == b->node && a->value == b->value)
        return 0; /* shared: nothing below differs */
    if (!a || !b || !a->node || !b->node || shift >= HASH_BITS)
        return diff_by_key(m, a, b, fn, arg);
    const struct pmap_node *na = a->node, *nb = b->node;
    for (uint32_t bits = na->bitmap | nb->bitmap; bits; bits &= bits - 1) {
        uint32_t bit = bits & -bits;
        const struct slot *sa = na->bitmap & bit ? &na->slots[position(na->bitmap, bit)] : NULL;
        const struct slot *sb = nb->bitmap & bit ? &nb->slots[position(nb->bitmap, bit)] : NULL;
        if (diff(m, sa, sb, shift + BITS, fn, arg))
            return -1;
    }
    return 0;
}

int pmap_diff(const struct pmap *a, const struct pmap *b, pmap_diff_fn fn, void *arg)
{
    struct slot ra = {a->root, NULL, 0}, rb = {b->root, NULL, 0};
    return diff(a, a->root ? &ra : NULL, b->root ? &rb : NULL, 0, fn, arg);
}
