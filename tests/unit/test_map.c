#include <criterion/criterion.h>
#include <stdio.h>

#include "core/map.h"

static void count(const char *key, void *value, void *arg)
{
    (void)key;
    (void)value;
    (*(int *)arg)++;
}

Test(map, set_get_replace_remove_and_grow)
{
    struct map m;
    map_init(&m);
    cr_assert_null(map_get(&m, "x"));
    int values[1000];
    char key[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        cr_assert_eq(map_set(&m, key, &values[i]), 0);
    }
    cr_assert_eq(m.count, 1000);
    cr_assert_eq(map_get(&m, "k537"), &values[537]);
    map_set(&m, "k537", &values[1]);
    cr_assert_eq(map_get(&m, "k537"), &values[1]);
    cr_assert_eq(m.count, 1000);
    cr_assert_eq(map_remove(&m, "k1"), &values[1]);
    cr_assert_null(map_remove(&m, "k1"));
    int n = 0;
    map_each(&m, count, &n);
    cr_assert_eq(n, 999);
    map_cleanup(&m);
}

static int odd(void *value, void *arg)
{
    (void)arg;
    return *(int *)value % 2;
}

static int released;
static void note_release(void *value)
{
    (void)value;
    released++;
}

Test(map, remove_if_drops_the_chosen_entries_only)
{
    struct map m;
    map_init(&m);
    int values[300];
    char key[16];
    for (int i = 0; i < 300; i++) {
        values[i] = i;
        snprintf(key, sizeof key, "k%d", i);
        cr_assert_eq(map_set(&m, key, &values[i]), 0);
    }
    released = 0;
    cr_assert_eq(map_remove_if(&m, odd, NULL, note_release), 150);
    cr_assert_eq(released, 150);
    cr_assert_eq(m.count, 150);
    int n = 0;
    map_each(&m, count, &n);
    cr_assert_eq(n, 150);
    cr_assert_null(map_get(&m, "k7"));
    cr_assert_eq(map_get(&m, "k8"), &values[8]);
    cr_assert_eq(map_remove_if(&m, odd, NULL, NULL), 0);
    map_cleanup(&m);
}

Test(map, set_copy_keeps_its_own_copy_and_frees_the_one_before)
{
    struct map m;
    map_init(&m);
    char value[] = "primeiro";
    cr_assert_eq(map_set_copy(&m, "k", value), 0);
    value[0] = 'X';
    cr_assert_str_eq(map_get(&m, "k"), "primeiro", "a copy");
    cr_assert_eq(map_set_copy(&m, "k", "segundo"), 0);
    cr_assert_str_eq(map_get(&m, "k"), "segundo");
    cr_assert_eq(map_set_copy(&m, "k", NULL), 0);
    cr_assert_null(map_get(&m, "k"), "NULL keeps none");
    cr_assert_eq(m.count, 0);
    map_cleanup(&m);
}
