/* What a report may say: its reason, one of a short list people choose from, and what becomes of
 * it. */
#ifndef PRACA_DOMAIN_REPORTS_H
#define PRACA_DOMAIN_REPORTS_H

#define RULE_REPORT_DETAILS_MAX 1000
#define RULE_REPORT_NOTE_MAX    500

/* 1 when s is a reason: spam, harassment, hate, violence, sexual, self_harm, impersonation,
 * other. */
int rule_report_reason_known(const char *s);
/* 1 when s is a report's state: open, resolved, dismissed. */
int rule_report_status_known(const char *s);

#endif
