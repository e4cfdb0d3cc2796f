/* Reading an export of JSON lines (Mattermost's, Praça's archive): see import_formats.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/import_formats.h"
#include "core/buf.h"

#define CHUNK ((size_t)64 << 10)

/* The next line of f into line, NUL-ended, without its newline: 1, 0 at the end, -1 past the
 * line's bound or on a read error. */
static int next_line(FILE *f, struct buf *line, char *chunk)
{
    buf_reset(line);
    while (fgets(chunk, (int)CHUNK, f)) {
        size_t n = strlen(chunk);
        int end = n && chunk[n - 1] == '\n';
        if (buf_append(line, chunk, n - (size_t)end))
            return -1;
        if (end)
            return 1;
    }
    return ferror(f) ? -1 : line->len > 0;
}

int cli_import_lines(const char *path, size_t line_max,
                     int (*fn)(json_t *v, long number, void *arg), void *arg, int64_t *read)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "praca import: %s: cannot open\n", path);
        return -1;
    }
    struct buf line;
    buf_init(&line, line_max);
    char *chunk = malloc(CHUNK);
    int rc = chunk ? 0 : -1, got = 0;
    for (long number = 1; !rc && (got = next_line(f, &line, chunk)) == 1; number++) {
        if (!line.len)
            continue;
        if (read)
            *read = (int64_t)ftello(f);
        json_error_t jerr;
        json_t *v = json_loadb(line.data, line.len, JSON_REJECT_DUPLICATES, &jerr);
        if (!v) {
            fprintf(stderr, "praca import: %s: line %ld: %s\n", path, number, jerr.text);
            rc = -1;
        } else {
            rc = fn(v, number, arg);
        }
    }
    if (got < 0)
        fprintf(stderr, "praca import: %s: a line past %zu MiB, or unreadable\n", path,
                line_max >> 20);
    free(chunk);
    buf_cleanup(&line);
    fclose(f);
    return rc || got < 0 ? -1 : 0;
}

int64_t cli_import_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? 0 : (int64_t)st.st_size;
}
