/*
 * praca admin vapid [--rotate]: the public half of the key pair Praça signs its Web Push
 * requests with (what push services see), or a new pair in its place. A rotation forgets every
 * device's subscription, made for the old key; each page subscribes again when it next opens.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/webpush.h"
#include "store/db.h"
#include "store/web_push.h"

int cli_admin_vapid(const struct config *cfg, int rotate)
{
    struct store *db = cli_open_store(cfg);
    struct webpush_keys k;
    int rc = !db      ? STORE_ERR
             : rotate ? store_vapid_rotate(db, clock_now_ms())
                      : store_vapid_ensure(db, clock_now_ms());
    if (rc == STORE_DONE)
        rc = store_vapid_read(db, &k);
    store_close(db);
    if (rc != STORE_DONE) {
        fprintf(stderr, "praca admin vapid: the database cannot be read or written\n");
        return 1;
    }
    char key[WEBPUSH_PUBLIC_LEN * 4 / 3 + 4];
    crypto_base64url(k.pub, sizeof k.pub, key);
    printf("%s\n", key);
    if (rotate)
        fprintf(stderr, "a new key pair; every device's subscription was forgotten\n");
    return 0;
}
