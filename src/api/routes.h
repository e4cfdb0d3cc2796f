/*
 * `praca routes`: every route the API serves, as the route tables say: method and path, who
 * may call it, the lane it runs on, the body it takes, the limit it counts and whether that
 * limit is counted ahead of the writer lane. As Markdown it is docs/api.md's "Every route",
 * which a test compares with this output.
 */
#ifndef PRACA_API_ROUTES_H
#define PRACA_API_ROUTES_H

#include <stdio.h>

/* markdown: a Markdown table; else aligned columns for a terminal. */
void api_routes_print(FILE *out, int markdown);

#endif
