/*
 * Writing a tar archive (POSIX ustar) to a seekable stdio stream, for archives whose entries are
 * written as they are made: an entry begins with a placeholder header, its bytes follow, and its
 * end goes back to write the header with the size it came to. Nothing is held in memory but a
 * 512-byte block, whatever the entry's size.
 */
#ifndef PRACA_CORE_TAR_H
#define PRACA_CORE_TAR_H
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define TAR_BLOCK    512
#define TAR_NAME_MAX 100 /* a name's bytes (ustar's prefix field is not used) */

struct tar_entry {
    off_t header_at;
};

/* Room for an entry's header; its bytes are then written to f. 0, or -1. */
int tar_entry_begin(FILE *f, struct tar_entry *e);
/* Ends the entry begun at e: its header (a regular file, mode 0644, name and mtime in seconds)
 * written in place, the bytes padded to a block. 0; -1 when name is empty or too long, or on an
 * I/O error. */
int tar_entry_end(FILE *f, const struct tar_entry *e, const char *name, int64_t mtime);
/* The end of the archive (two zero blocks). 0, or -1. */
int tar_finish(FILE *f);
/* The ustar header of a regular file into block (TAR_BLOCK bytes): 0, or -1 as tar_entry_end. */
int tar_header(unsigned char block[TAR_BLOCK], const char *name, uint64_t size, int64_t mtime);

#endif
