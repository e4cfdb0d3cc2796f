#include <criterion/criterion.h>
#include <string.h>

#include "domain/zip.h"

/* A zip of one stored file "a.txt" holding "hi", as Python's zipfile writes it. */
static const unsigned char ONE[] = {
    /* local header */
    0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0, 0, 0, 0x21, 0, 0xac, 0x2a, 0x93, 0xd8, 2, 0, 0, 0,
    2, 0, 0, 0, 5, 0, 0, 0, 'a', '.', 't', 'x', 't', 'h', 'i',
    /* central directory */
    0x50, 0x4b, 0x01, 0x02, 0x14, 3, 0x14, 0, 0, 0, 0, 0, 0, 0, 0x21, 0, 0xac, 0x2a, 0x93, 0xd8, 2,
    0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 1, 0, 0, 0, 0, 'a', '.', 't',
    'x', 't',
    /* end record */
    0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 1, 0, 1, 0, 51, 0, 0, 0, 37, 0, 0, 0, 0, 0};

Test(zip, one_stored_file_is_found_where_its_directory_says)
{
    struct zip_directory d;
    const char *why = NULL;
    cr_assert_eq(rule_zip_end(ONE, sizeof ONE, sizeof ONE, &d, &why), 0, "%s", why);
    cr_assert_eq(d.entries, 1);
    cr_assert_eq(d.offset, 37);
    cr_assert_eq(d.size, 51);
    size_t at = 0;
    struct zip_entry e;
    cr_assert_eq(rule_zip_entry(ONE + d.offset, d.size, &at, &e, &why), 0, "%s", why);
    cr_assert_eq(e.name_len, 5);
    cr_assert(!memcmp(e.name, "a.txt", 5));
    cr_assert_eq(e.deflated, 0);
    cr_assert_eq(e.size, 2);
    cr_assert_eq(e.crc, 0xd8932aacu);
    cr_assert_eq(rule_zip_entry(ONE + d.offset, d.size, &at, &e, &why), 1, "the end");
    uint64_t data;
    cr_assert_eq(rule_zip_local(ONE + e.local_offset, e.local_offset, &data, &why), 0);
    cr_assert_eq(data, 35);
    cr_assert(!memcmp(ONE + data, "hi", 2));
}

Test(zip, what_is_not_a_zip_or_not_one_of_ours_is_refused_with_why)
{
    struct zip_directory d;
    const char *why = NULL;
    cr_assert_eq(rule_zip_end((const unsigned char *)"not a zip at all, really", 24, 24, &d, &why),
                 -1);
    cr_assert_str_eq(why, "not a zip archive (no end record)");
    cr_assert_eq(rule_zip_end(ONE, sizeof ONE, 40, &d, &why), -1, "a directory past the end");
    unsigned char copy[sizeof ONE];
    memcpy(copy, ONE, sizeof ONE);
    copy[37 + 8] = 1; /* encrypted */
    size_t at = 0;
    struct zip_entry e;
    cr_assert_eq(rule_zip_entry(copy + 37, 51, &at, &e, &why), -1);
    cr_assert_str_eq(why, "an encrypted file");
    memcpy(copy, ONE, sizeof ONE);
    copy[37 + 10] = 12; /* bzip2 */
    at = 0;
    cr_assert_eq(rule_zip_entry(copy + 37, 51, &at, &e, &why), -1);
    cr_assert_str_eq(why, "a file compressed otherwise than by deflate");
    at = 0;
    cr_assert_eq(rule_zip_entry(ONE + 37, 50, &at, &e, &why), -1, "cut short");
    uint64_t data;
    cr_assert_eq(rule_zip_local(ONE + 37, 37, &data, &why), -1, "not a local header");
}

Test(zip, only_names_that_stay_inside_the_folder_are_safe)
{
    static const char *const SAFE[] = {"users.json", "geral/2023-07-22.json", "geral/", "a/b/c"};
    static const char *const UNSAFE[] = {"",     "/etc/passwd", "../x",   "a/../../x",
                                         "a/..", "..",          "a\\\\b", "a//b"};
    for (size_t i = 0; i < sizeof SAFE / sizeof *SAFE; i++)
        cr_assert(rule_zip_name_safe(SAFE[i], strlen(SAFE[i])), "%s", SAFE[i]);
    for (size_t i = 0; i < sizeof UNSAFE / sizeof *UNSAFE; i++)
        cr_assert(!rule_zip_name_safe(UNSAFE[i], strlen(UNSAFE[i])), "%s", UNSAFE[i]);
    cr_assert(!rule_zip_name_safe("a\0b", 3), "a NUL");
}
