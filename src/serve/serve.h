/* `praca serve`: runs the service until SIGTERM or SIGINT has drained it. */
#ifndef PRACA_SERVE_SERVE_H
#define PRACA_SERVE_SERVE_H
#include "core/config.h"

/* The exit status: 0 after a drain, 1 when it could not start. */
int serve_run(const struct config *cfg);

#endif
