/* Connection-state recovery: who may claim, within what window, and what is replayed. */
#include <criterion/criterion.h>
#include <string.h>

#include "gateway/recovery.h"

static const char BOT[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000b071";
static const char OTHER[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-0000000000ff";

struct seen {
    uint64_t seq[16];
    int n;
};

static void collect(void *arg, uint64_t seq, const char *name, const char *payload, size_t len)
{
    struct seen *s = arg;
    (void)name;
    (void)payload;
    (void)len;
    s->seq[s->n++] = seq;
}

Test(recovery, claim_and_replay_only_the_users_events)
{
    struct recovery *r = gateway__recovery_new();
    struct idset *to_bot = idset_of(&BOT, 1), *to_other = idset_of(&OTHER, 1);
    uint64_t a = gateway__recovery_record(r, "MESSAGE_CREATE", "{}", 2, to_bot, 1000);
    gateway__recovery_park(r, "pid1", BOT, "hash", 0, 2000);
    uint64_t b = gateway__recovery_record(r, "MESSAGE_CREATE", "{\"n\":2}", 7, to_bot, 2100);
    gateway__recovery_record(r, "MESSAGE_CREATE", "{}", 2, to_other, 2200);
    uint64_t c = gateway__recovery_record(r, "MESSAGE_DELETE", "{}", 2, to_bot, 2300);
    uint64_t offset = a;
    cr_assert(gateway__recovery_claim(r, "pid1", BOT, "hash", &offset, 3000));
    struct seen s = {{0}, 0};
    gateway__recovery_replay(r, offset, BOT, collect, &s);
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.seq[0], b);
    cr_assert_eq(s.seq[1], c);
    cr_assert_not(gateway__recovery_claim(r, "pid1", BOT, "hash", &offset, 3000), "claimed once");
    gateway__recovery_free(r);
    idset_unref(to_bot);
    idset_unref(to_other);
}

Test(recovery, refused_for_another_token_user_or_after_two_minutes)
{
    struct recovery *r = gateway__recovery_new();
    struct idset *to_bot = idset_of(&BOT, 1);
    gateway__recovery_record(r, "E", "{}", 2, to_bot, 0);
    uint64_t offset = 1;
    gateway__recovery_park(r, "p", BOT, "hash", 0, 1000);
    cr_assert_not(gateway__recovery_claim(r, "p", BOT, "other-hash", &offset, 1000));
    gateway__recovery_park(r, "p", BOT, "hash", 0, 1000);
    cr_assert_not(gateway__recovery_claim(r, "p", OTHER, "hash", &offset, 1000));
    gateway__recovery_park(r, "p", BOT, "hash", 0, 1000);
    cr_assert_not(
        gateway__recovery_claim(r, "p", BOT, "hash", &offset, 1000 + RECOVERY_WINDOW_MS + 1));
    gateway__recovery_park(r, "p", BOT, "hash", 0, 1000);
    gateway__recovery_expire(r, 1000 + RECOVERY_WINDOW_MS + 1);
    cr_assert_not(gateway__recovery_claim(r, "p", BOT, "hash", &offset, 1001), "expired and swept");
    gateway__recovery_free(r);
    idset_unref(to_bot);
}

Test(recovery, no_offset_means_since_the_start_and_dropped_events_fail)
{
    struct recovery *r = gateway__recovery_new();
    struct idset *to_bot = idset_of(&BOT, 1);
    for (int i = 0; i < 5; i++)
        gateway__recovery_record(r, "E", "{}", 2, to_bot, 10);
    gateway__recovery_park(r, "p", BOT, "hash", gateway__recovery_last(r), 20);
    uint64_t missed = gateway__recovery_record(r, "E", "{}", 2, to_bot, 30);
    uint64_t offset = 0;
    cr_assert(gateway__recovery_claim(r, "p", BOT, "hash", &offset, 40));
    struct seen s = {{0}, 0};
    gateway__recovery_replay(r, offset, BOT, collect, &s);
    cr_assert_eq(s.n, 1);
    cr_assert_eq(s.seq[0], missed);
    /* Events older than the window leave; a claim from before them cannot be honoured. */
    gateway__recovery_park(r, "q", BOT, "hash", 0, 50);
    gateway__recovery_expire(r, 31 + RECOVERY_WINDOW_MS);
    offset = 2;
    cr_assert_not(gateway__recovery_claim(r, "q", BOT, "hash", &offset, 60));
    gateway__recovery_free(r);
    idset_unref(to_bot);
}

Test(recovery, a_pid_carries_the_position_it_began_at)
{
    char pid[RECOVERY_PID_MAX], other[RECOVERY_PID_MAX];
    gateway__recovery_new_pid(pid, 12345);
    gateway__recovery_new_pid(other, 12345);
    cr_assert_eq(gateway__recovery_pid_position(pid), 12345);
    cr_assert_str_neq(pid, other, "the rest is random");
    cr_assert_eq(strlen(pid), strlen("12345.") + 20);
    gateway__recovery_new_pid(pid, 0);
    cr_assert_eq(gateway__recovery_pid_position(pid), 0);
    cr_assert_eq(gateway__recovery_pid_position("sem-ponto"), 0);
    cr_assert_eq(gateway__recovery_pid_position(".abc"), 0);
    cr_assert_eq(gateway__recovery_pid_position("-1.abc"), 0);
    cr_assert_eq(gateway__recovery_pid_position("99999999999999999999999.abc"), 0, "out of range");
}
