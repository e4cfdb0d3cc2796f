/* The event console's records: kept only while watched, and an entry another node may have
 * delivered settled once. */
#include <criterion/criterion.h>
#include <string.h>

#include "state/console.h"

#define APP    "01a1fe3b-0000-7000-8000-0000000000a0"
#define BOT    "01a1fe3b-0000-7000-8000-0000000000b0"
#define SERVER "01a1fe3b-0000-7000-8000-00000000000a"

static enum console_outcome not_here(void *arg, const char *bot_user_id)
{
    (void)arg;
    cr_assert_str_eq(bot_user_id, BOT);
    return CONSOLE_NOT_HERE;
}

static void record(struct console *c, uint64_t position)
{
    struct console_entry e = {.position = position, .at = 1000};
    strcpy(e.type, "MESSAGE_CREATE");
    strcpy(e.server_id, SERVER);
    state_console_record(c, &e, not_here, NULL);
}

Test(console, an_entry_not_here_is_settled_once)
{
    struct console *c = state_console_new();
    record(c, 1); /* nobody watches: not kept */
    struct idset *servers = idset_new(1);
    idset_add(servers, SERVER);
    cr_assert_eq(state_console_watch(c, APP, BOT, servers, 1000), 0);
    record(c, 2);
    record(c, 3);
    struct console_entry got[CONSOLE_KEPT];
    cr_assert_eq(state_console_read(c, APP, 0, got, CONSOLE_KEPT), 2);
    cr_assert_eq(got[0].outcome, CONSOLE_NOT_HERE);
    state_console_settle(c, APP, 2, CONSOLE_DELIVERED);
    state_console_settle(c, APP, 2, CONSOLE_NOT_CONNECTED); /* the first word is kept */
    state_console_settle(c, APP, 3, CONSOLE_NOT_CONNECTED);
    cr_assert_eq(state_console_read(c, APP, 0, got, CONSOLE_KEPT), 2);
    cr_assert_eq(got[0].position, 2);
    cr_assert_eq(got[0].outcome, CONSOLE_DELIVERED);
    cr_assert_eq(got[1].outcome, CONSOLE_NOT_CONNECTED);
    cr_assert_eq(state_console_read(c, APP, 2, got, CONSOLE_KEPT), 1, "after a position");
    state_console_free(c);
}
