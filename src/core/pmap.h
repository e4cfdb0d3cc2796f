/*
 * A persistent map from strings to reference-counted values: a hash array mapped trie whose
 * nodes are shared between versions. Copying a map costs one reference; changing the copy
 * copies only the nodes on the changed key's path (at most 13, ~4 for 100,000 keys), so a
 * change costs O(log n) and every earlier version stays valid and unchanged for its readers.
 *
 * A node that only one map reaches is changed in place, so building a map key by key costs
 * about what a hash table does. A map handle may be changed by one thread at a time; once its
 * copy is shared with readers, change only copies (pmap_copy) of it.
 *
 * Values carry their own reference count and key (struct pmap_value first in the owner's
 * struct); a map holds one reference to each value it maps.
 */
#ifndef PRACA_CORE_PMAP_H
#define PRACA_CORE_PMAP_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct pmap_value {
    atomic_int refs;
    void (*release)(struct pmap_value *v); /* called when the last reference goes */
};

/* The key a map files a value under (a map of members by ID, another by username). */
typedef const char *(*pmap_key_fn)(const struct pmap_value *v);

struct pmap_node;

struct pmap {
    struct pmap_node *root; /* NULL when empty */
    size_t count;
    pmap_key_fn key;
};

void pmap_init(struct pmap *m, pmap_key_fn key);
/* Drops this handle's reference to the nodes; the map is empty afterwards. */
void pmap_cleanup(struct pmap *m);
/* A second handle on the same contents: O(1). */
struct pmap pmap_copy(const struct pmap *m);

struct pmap_value *pmap_get(const struct pmap *m, const char *key);
/* Files v under its key, replacing (and releasing) a value already there; takes a new reference
 * to v. Returns 0, or -1 when out of memory (the map is then as it was). */
int pmap_put(struct pmap *m, struct pmap_value *v);
/* Removes the value under key, if any. Returns 1 removed, 0 absent, -1 out of memory. */
int pmap_del(struct pmap *m, const char *key);
/* Calls fn for each value, in no particular order; fn must not change the map. */
void pmap_each(const struct pmap *m, void (*fn)(struct pmap_value *v, void *arg), void *arg);

/* What differs from a to b (two versions of one map, same key function): fn(old, new) for each
 * key whose value changed, fn(old, NULL) for each removed, fn(NULL, new) for each added. Nodes
 * the two share are skipped, so a few changes cost a few paths, whatever the size. Returns 0,
 * or -1 when out of memory (fn may have been called for some keys). */
typedef void (*pmap_diff_fn)(struct pmap_value *old, struct pmap_value *now, void *arg);
int pmap_diff(const struct pmap *a, const struct pmap *b, pmap_diff_fn fn, void *arg);
struct pmap_value *pmap_value_ref(struct pmap_value *v);
void pmap_value_unref(struct pmap_value *v);

#endif
