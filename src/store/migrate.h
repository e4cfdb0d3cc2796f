/* Numbered migrations (src/store/migrations/NNN_name.sql, compiled in), applied in order. */
#ifndef PRACA_STORE_MIGRATE_H
#define PRACA_STORE_MIGRATE_H

#include "store/db.h"

/* Applies every migration newer than the database's; returns how many ran, or < 0. */
int store_migrate(struct store *db);

#endif
