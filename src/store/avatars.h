/* People's pictures: the blobs of a person's avatar (store/files.h keeps the bytes). */
#ifndef PRACA_STORE_AVATARS_H
#define PRACA_STORE_AVATARS_H
#include "core/crypto.h"
#include "store/db.h"
#include "store/writer.h"

/* The URL path of the picture of the users row aliased `u` (NULL when it has none), as SQL: the
 * key in it is the picture's, so a new picture is a new URL. */
#define STORE_AVATAR_URL_SQL(u)                                                                    \
    "CASE WHEN " u ".avatar IS NULL THEN NULL ELSE '/api/users/' || " u ".id || '/avatar/' ||"     \
    " substr(" u ".avatar, 1, " STORE_AVATAR_KEY_LEN_S ") END"
#define STORE_AVATAR_KEY_LEN   16
#define STORE_AVATAR_KEY_LEN_S "16"

struct store_avatar {
    const char *user_id;
    char large[CRYPTO_SHA256_HEX + 1], small[CRYPTO_SHA256_HEX + 1]; /* "" for none */
};

/* A person's picture into out: 1 (large "" when none), 0 no such person, < 0 error. */
int store_avatar_get(struct store *db, const char *user_id, struct store_avatar *out);
/* Sets (or with large "", takes away) a person's picture. */
int store_avatar_set(struct store_writer *w, struct store_avatar *a);

#endif
