/* What a report may say: see reports.h. */
#include "domain/reports.h"

#include <string.h>

static int one_of(const char *s, const char *const *list)
{
    for (; s && *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

int rule_report_reason_known(const char *s)
{
    static const char *const REASONS[] = {"spam",          "harassment", "hate",
                                          "violence",      "sexual",     "self_harm",
                                          "impersonation", "other",      NULL};
    return one_of(s, REASONS);
}

int rule_report_status_known(const char *s)
{
    static const char *const STATES[] = {"open", "resolved", "dismissed", NULL};
    return one_of(s, STATES);
}
