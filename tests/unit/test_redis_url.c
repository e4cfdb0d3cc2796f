/* PRACA_REDIS_URL: host, port, password and database, and what is refused; a connection to
 * itself told apart. */
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

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* A socket on 127.0.0.1, its port chosen by the kernel; *addr says where. */
static int local_socket(struct sockaddr_in *addr)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    socklen_t len = sizeof *addr;
    *addr = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    cr_assert_eq(bind(fd, (struct sockaddr *)addr, sizeof *addr), 0);
    cr_assert_eq(getsockname(fd, (struct sockaddr *)addr, &len), 0);
    return fd;
}

Test(redis_url, a_connection_to_itself_is_told_from_a_real_one)
{
    struct sockaddr_in at;
    int self = local_socket(&at); /* connecting to its own port: TCP's simultaneous open */
    cr_assert_eq(connect(self, (struct sockaddr *)&at, sizeof at), 0);
    cr_assert_eq(redis_connected_to_itself(self), 1);
    close(self);

    int server = local_socket(&at);
    cr_assert_eq(listen(server, 1), 0);
    int client = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_eq(connect(client, (struct sockaddr *)&at, sizeof at), 0);
    cr_assert_eq(redis_connected_to_itself(client), 0);
    cr_assert_eq(redis_connected_to_itself(server), 0, "not connected at all");
    close(client);
    close(server);
}
