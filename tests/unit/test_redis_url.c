/* PRACA_REDIS_URL: host, port, password and database, and what is refused. */
#include <criterion/criterion.h>

#include "core/redis.h"

Test(redis_url, host_alone_takes_the_defaults)
{
    struct redis_url u;
    cr_assert_eq(redis_url_parse("redis://cache.internal", &u), 0);
    cr_assert_str_eq(u.host, "cache.internal");
    cr_assert_eq(u.port, 6379);
    cr_assert_str_eq(u.password, "");
    cr_assert_eq(u.db, 0);
}

Test(redis_url, every_part)
{
    struct redis_url u;
    cr_assert_eq(redis_url_parse("redis://:s3cr@t@10.0.0.5:6380/2", &u), 0);
    cr_assert_str_eq(u.host, "10.0.0.5");
    cr_assert_eq(u.port, 6380);
    cr_assert_str_eq(u.password, "s3cr@t");
    cr_assert_eq(u.db, 2);
    cr_assert_eq(redis_url_parse("redis://praca:pw@h/", &u), 0);
    cr_assert_str_eq(u.password, "pw");
    cr_assert_eq(u.db, 0);
}

Test(redis_url, refused)
{
    struct redis_url u;
    cr_assert_eq(redis_url_parse("http://h", &u), -1);
    cr_assert_eq(redis_url_parse("redis://", &u), -1);
    cr_assert_eq(redis_url_parse("redis://:6379", &u), -1);
    cr_assert_eq(redis_url_parse("redis://h:port", &u), -1);
    cr_assert_eq(redis_url_parse("redis://h:70000", &u), -1);
    cr_assert_eq(redis_url_parse("redis://h/x", &u), -1);
}
