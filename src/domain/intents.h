/* Application intents: the five names of the interface and their bits. Pure. */
#ifndef PRACA_DOMAIN_INTENTS_H
#define PRACA_DOMAIN_INTENTS_H
#include <stddef.h>
#include <stdint.h>

#define INTENT_MESSAGES_READ        (1u << 0)
#define INTENT_MESSAGES_WRITE       (1u << 1)
#define INTENT_MEMBERS_READ         (1u << 2)
#define INTENT_INTERACTIONS_RECEIVE (1u << 3)
#define INTENT_VOICE_CONNECT        (1u << 4)
#define INTENT_COUNT                5

/* The bit of a name ("messages.read"), or 0 when unknown. */
uint32_t rule_intent_bit(const char *name, size_t len);
/* The name of the i-th intent (0 ≤ i < INTENT_COUNT), in the interface's order. */
const char *rule_intent_name(int i);

#endif
