/* File rules: names lose paths, controls and reserved characters and stay valid UTF-8 within
 * their limit; only types that run nothing are shown in place. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "domain/files.h"

Test(files, names_are_cleaned)
{
    char out[RULE_FILENAME_MAX + 1];
    rule_filename_clean("../../etc/passwd", out);
    cr_assert_str_eq(out, "passwd");
    rule_filename_clean("C:\\Users\\eu\\foto.jpg", out);
    cr_assert_str_eq(out, "foto.jpg");
    rule_filename_clean("..hidden", out);
    cr_assert_str_eq(out, "hidden");
    rule_filename_clean("a<b>c:d\"e|f?g*h\x01.txt", out);
    cr_assert_str_eq(out, "a_b_c_d_e_f_g_h_.txt");
    rule_filename_clean("relatório ção.pdf", out);
    cr_assert_str_eq(out, "relatório ção.pdf");
    rule_filename_clean("bad\xff\xfe.bin", out);
    cr_assert_str_eq(out, "bad__.bin");
    rule_filename_clean("...", out);
    cr_assert_str_eq(out, "arquivo");
    rule_filename_clean("", out);
    cr_assert_str_eq(out, "arquivo");
    char longname[400];
    memset(longname, 0, sizeof longname);
    for (int i = 0; i < 150; i++)
        strcat(longname, "ç"); /* 2 bytes each: cut at a character boundary */
    rule_filename_clean(longname, out);
    cr_assert_eq(strlen(out), RULE_FILENAME_MAX);
    cr_assert_eq((unsigned char)out[RULE_FILENAME_MAX - 2], 0xC3);
}

Test(files, format_characters_are_dropped)
{
    char out[RULE_FILENAME_MAX + 1];
    /* A right-to-left override makes "fatura\u202Efdp.exe" show as "faturaexe.pdf". */
    rule_filename_clean("fatura\xE2\x80\xAE"
                        "fdp.exe",
                        out);
    cr_assert_str_eq(out, "faturafdp.exe");
    /* Zero-width space and joiner, the BOM, an isolate, a tag, a soft hyphen. */
    rule_filename_clean("\xE2\x80\x8B"
                        "fo\xE2\x80\x8D"
                        "o\xEF\xBB\xBF\xE2\x81\xA6.t\xF3\xA0\x80\x81x\xC2\xAD"
                        "t",
                        out);
    cr_assert_str_eq(out, "foo.txt");
    rule_filename_clean("\xE2\x80\xAE", out);
    cr_assert_str_eq(out, "arquivo", "nothing left");
    /* Letters of other scripts stay. */
    rule_filename_clean("\xD9\x85\xD9\x84\xD9\x81.pdf", out);
    cr_assert_str_eq(out, "\xD9\x85\xD9\x84\xD9\x81.pdf");
}

Test(files, inline_types)
{
    cr_assert(rule_file_inline("image/png"));
    cr_assert(rule_file_inline("video/mp4"));
    cr_assert(rule_file_inline("audio/mpeg"));
    cr_assert(rule_file_inline("text/plain"));
    cr_assert(!rule_file_inline("text/html"));
    cr_assert(!rule_file_inline("image/svg+xml"));
    cr_assert(!rule_file_inline("application/pdf"));
    cr_assert(!rule_file_inline("text/xml"));
    cr_assert(!rule_file_inline("application/octet-stream"));
}

Test(files, names_in_urls)
{
    char out[400];
    rule_filename_url("a b/ç?.txt", out, sizeof out);
    cr_assert_str_eq(out, "a%20b%2F%C3%A7%3F.txt");
}

Test(files, a_rewritten_picture_takes_its_new_extension)
{
    char name[RULE_FILENAME_MAX + 1] = "IMG_0001.HEIC";
    rule_filename_set_extension(name, "jpg");
    cr_assert_str_eq(name, "IMG_0001.jpg");
    snprintf(name, sizeof name, "sem ponto");
    rule_filename_set_extension(name, "png");
    cr_assert_str_eq(name, "sem ponto.png");
    snprintf(name, sizeof name, "a.b.tiff");
    rule_filename_set_extension(name, "jpg");
    cr_assert_str_eq(name, "a.b.jpg");
    /* A name at its limit is cut before the extension, at a character's start. */
    memset(name, 0, sizeof name);
    for (int i = 0; i < RULE_FILENAME_MAX / 2; i++)
        strcat(name, "ç");
    rule_filename_set_extension(name, "jpg");
    cr_assert_leq(strlen(name), RULE_FILENAME_MAX);
    cr_assert_str_eq(name + strlen(name) - 4, ".jpg");
    cr_assert_eq((unsigned char)name[strlen(name) - 6], 0xC3, "%s", name);
}

Test(files, an_attachment_as_the_api_shows_it)
{
    struct rule_attachment_shown a = {"01a2", "capa de livro.png", "image/png", 1234, 1, 64, 48};
    json_t *o = rule_attachment_object("https://chat.example", &a);
    cr_assert_str_eq(json_string_value(json_object_get(o, "url")),
                     "https://chat.example/api/attachments/01a2/capa%20de%20livro.png");
    cr_assert_str_eq(json_string_value(json_object_get(o, "thumbnailUrl")),
                     "https://chat.example/api/attachments/01a2/capa%20de%20livro.png?thumbnail=1");
    cr_assert_eq(json_integer_value(json_object_get(o, "size")), 1234);
    cr_assert_eq(json_integer_value(json_object_get(o, "width")), 64);
    cr_assert_eq(json_integer_value(json_object_get(o, "height")), 48);
    json_decref(o);
    a = (struct rule_attachment_shown){"01a3", "nota.txt", "text/plain", 5, 0, 0, 0};
    o = rule_attachment_object("", &a);
    cr_assert_str_eq(json_string_value(json_object_get(o, "url")), "/api/attachments/01a3/nota.txt",
                     "no site: a path on the server's own origin");
    cr_assert(json_is_null(json_object_get(o, "thumbnailUrl")));
    cr_assert_null(json_object_get(o, "width"), "a size only when known");
    json_decref(o);
}
