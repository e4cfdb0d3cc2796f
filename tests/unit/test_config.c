#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/config.h"

Test(config, flags_win_over_env)
{
    struct config c;
    config_defaults(&c);
    setenv("PRACA_PORT", "9000", 1);
    setenv("PRACA_RATE_LIMIT_SCALE", "2.5", 1);
    char err[128];
    cr_assert_eq(config_from_env(&c, err, sizeof err), CONFIG_OK);
    cr_assert_eq(c.port, 9000);
    cr_assert_float_eq(c.rate_limit_scale, 2.5, 1e-9);
    char *argv[] = {"praca", "serve", "--port", "0", "--data=/tmp/x.db", "--conformance", "word"};
    char *pos[8];
    int npos;
    cr_assert_eq(config_from_args(&c, 7, argv, 2, pos, &npos, err, sizeof err), CONFIG_OK);
    cr_assert_eq(c.port, 0);
    cr_assert_str_eq(c.data, "/tmp/x.db");
    cr_assert(c.conformance);
    cr_assert_eq(npos, 1);
    cr_assert_str_eq(pos[0], "word");
    unsetenv("PRACA_PORT");
    unsetenv("PRACA_RATE_LIMIT_SCALE");
}

Test(config, bad_values_are_errors)
{
    struct config c;
    config_defaults(&c);
    char err[128];
    char *pos[8];
    int npos;
    char *a1[] = {"praca", "serve", "--port", "70000"};
    cr_assert_eq(config_from_args(&c, 4, a1, 2, pos, &npos, err, sizeof err), CONFIG_ERROR);
    char *a2[] = {"praca", "serve", "--workers"};
    cr_assert_eq(config_from_args(&c, 3, a2, 2, pos, &npos, err, sizeof err), CONFIG_ERROR);
    char *a3[] = {"praca", "serve", "--rate-limit-scale", "0"};
    cr_assert_eq(config_from_args(&c, 4, a3, 2, pos, &npos, err, sizeof err), CONFIG_ERROR);
    /* A stored file waits for its message's transaction: a sweep must give it a minute. */
    char *a4[] = {"praca", "serve", "--files-grace-seconds", "59"};
    cr_assert_eq(config_from_args(&c, 4, a4, 2, pos, &npos, err, sizeof err), CONFIG_ERROR);
    char *a5[] = {"praca", "serve", "--files-grace-seconds", "60"};
    cr_assert_eq(config_from_args(&c, 4, a5, 2, pos, &npos, err, sizeof err), CONFIG_OK);
    cr_assert_eq(c.files_grace_seconds, 60);
}

Test(config, limits_before_login_are_on_by_default)
{
    struct config c;
    config_defaults(&c);
    cr_assert_eq(c.registrations_per_address, 20);
    cr_assert_eq(c.logins_per_address, 30);
    cr_assert_eq(c.session_idle_days, 30);
    cr_assert_eq(c.body_budget_mb, 256);
    char err[128];
    char *pos[8];
    int npos;
    char *argv[] = {"praca", "serve", "--session-idle-days", "0"};
    cr_assert_eq(config_from_args(&c, 4, argv, 2, pos, &npos, err, sizeof err), CONFIG_ERROR,
                 "a session must live at least a day");
}
