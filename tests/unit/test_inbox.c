/* The loop inbox: items run on the loop in order; a shut inbox refuses posts and runs what was
 * left; one closed is freed with its handles; one that runs after I/O lets the others go first. */
#include <criterion/criterion.h>
#include <stddef.h>

#include "core/inbox.h"

struct mark {
    struct job item;
    int id;
};

static int ran[8], nran;

static void note(struct job *item, void *ctx)
{
    (void)ctx;
    ran[nran++] = ((struct mark *)((char *)item - offsetof(struct mark, item)))->id;
}

Test(inbox, items_run_on_the_loop_in_order)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct inbox *in = inbox_new(&loop);
    struct mark a = {{.run = note}, 1}, b = {{.run = note}, 2}, c = {{.run = note}, 3};
    nran = 0;
    cr_assert_eq(inbox_post(in, &a.item), 0);
    b.item.next = &c.item;
    cr_assert_eq(inbox_post_list(in, &b.item, &c.item), 0);
    cr_assert_eq(nran, 0, "nothing runs before the loop does");
    uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(nran, 3);
    cr_assert(ran[0] == 1 && ran[1] == 2 && ran[2] == 3);
    inbox_close(in); /* freed with its handle */
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0, "no handle left");
}

Test(inbox, a_shut_inbox_runs_what_was_left_and_refuses_the_rest)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct inbox *in = inbox_new(&loop);
    struct mark a = {{.run = note}, 1}, late = {{.run = note}, 9};
    nran = 0;
    cr_assert_eq(inbox_post(in, &a.item), 0);
    inbox_shut(in);
    cr_assert_eq(nran, 1, "what was queued ran at once");
    cr_assert_eq(inbox_post(in, &late.item), -1, "refused: the item stays the poster's");
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(nran, 1);
    cr_assert_eq(uv_loop_close(&loop), 0);
    inbox_free(in);
}

/* The bus's inbox: items posted to it first still run after what another inbox brought in the
 * same turn of the loop (an answer is written before the events that came with it go out). */
Test(inbox, an_after_io_inbox_runs_after_the_turns_other_inboxes)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct inbox *late = inbox_new_after_io(&loop), *plain = inbox_new(&loop);
    struct mark e1 = {{.run = note}, 1}, e2 = {{.run = note}, 2}, answer = {{.run = note}, 3};
    nran = 0;
    cr_assert_eq(inbox_post(late, &e1.item), 0);
    cr_assert_eq(inbox_post(late, &e2.item), 0);
    cr_assert_eq(inbox_post(plain, &answer.item), 0);
    uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(nran, 3, "all in one turn");
    cr_assert(ran[0] == 3 && ran[1] == 1 && ran[2] == 2, "the other inbox's first, then in order");
    inbox_close(plain);
    inbox_close(late);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0, "no handle left");
}

Test(inbox, a_shut_after_io_inbox_runs_what_waited_for_the_check_phase)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct inbox *in = inbox_new_after_io(&loop);
    struct mark a = {{.run = note}, 1}, b = {{.run = note}, 2};
    nran = 0;
    cr_assert_eq(inbox_post(in, &a.item), 0);
    cr_assert_eq(inbox_post(in, &b.item), 0);
    inbox_shut(in);
    cr_assert_eq(nran, 2, "what was queued ran at once");
    cr_assert(ran[0] == 1 && ran[1] == 2);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(nran, 2);
    cr_assert_eq(uv_loop_close(&loop), 0, "both handles closed");
    inbox_free(in);
}
