/* The tar writer: headers as ustar says (checked by GNU tar reading an archive back), entries
 * whose size is learnt at their end, and the refusals. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tar.h"

static unsigned checksum_of(const unsigned char *h)
{
    unsigned sum = 0;
    for (int i = 0; i < TAR_BLOCK; i++)
        sum += (i >= 148 && i < 156) ? ' ' : h[i];
    return sum;
}

Test(tar, header_fields_and_checksum)
{
    unsigned char h[TAR_BLOCK];
    cr_assert_eq(tar_header(h, "conta/mensagens.jsonl", 1234, 1700000000), 0);
    cr_assert_str_eq((char *)h, "conta/mensagens.jsonl");
    cr_assert_eq(strtoull((char *)h + 124, NULL, 8), 1234);
    cr_assert_eq(strtoull((char *)h + 136, NULL, 8), 1700000000);
    cr_assert_eq(strtoul((char *)h + 100, NULL, 8), 0644);
    cr_assert_eq(h[156], '0');
    cr_assert_eq(memcmp(h + 257,
                        "ustar\0"
                        "00",
                        8),
                 0);
    cr_assert_eq(strtoul((char *)h + 148, NULL, 8), checksum_of(h));
}

Test(tar, refusals)
{
    unsigned char h[TAR_BLOCK];
    char long_name[TAR_NAME_MAX + 2];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    cr_assert_eq(tar_header(h, "", 1, 0), -1);
    cr_assert_eq(tar_header(h, long_name, 1, 0), -1);
    long_name[TAR_NAME_MAX] = '\0';
    cr_assert_eq(tar_header(h, long_name, 1, 0), 0, "exactly 100 bytes fit");
    cr_assert_eq(tar_header(h, "x", 1ULL << 33, 0), -1, "8 GiB does not fit 11 octal digits");
    cr_assert_eq(tar_header(h, "x", 1, -1), -1);
}

/* Two entries written as streams, one empty, read back by tar itself. */
Test(tar, entries_read_back_by_tar)
{
    char path[] = "/tmp/praca-tar-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w+");
    struct tar_entry e;
    cr_assert_eq(tar_entry_begin(f, &e), 0);
    for (int i = 0; i < 1000; i++)
        fprintf(f, "{\"n\":%d}\n", i);
    cr_assert_eq(tar_entry_end(f, &e, "a/linhas.jsonl", 1700000000), 0);
    cr_assert_eq(tar_entry_begin(f, &e), 0);
    cr_assert_eq(tar_entry_end(f, &e, "a/vazio.txt", 1700000000), 0);
    cr_assert_eq(tar_finish(f), 0);
    cr_assert_eq(ftello(f) % TAR_BLOCK, 0);
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tar -tvf %s", path);
    FILE *p = popen(cmd, "r");
    char listing[1024] = "";
    size_t n = fread(listing, 1, sizeof listing - 1, p);
    listing[n] = '\0';
    cr_assert_eq(pclose(p), 0, "tar reads it: %s", listing);
    cr_assert(strstr(listing, "a/linhas.jsonl"), "%s", listing);
    cr_assert(strstr(listing, " 9890 "), "the size learnt at the end: %s", listing);
    cr_assert(strstr(listing, "a/vazio.txt"), "%s", listing);
    snprintf(cmd, sizeof cmd, "tar -xOf %s a/linhas.jsonl | tail -n 1", path);
    p = popen(cmd, "r");
    n = fread(listing, 1, sizeof listing - 1, p);
    listing[n] = '\0';
    pclose(p);
    cr_assert_str_eq(listing, "{\"n\":999}\n");
    unlink(path);
}
