/* Intents: see intents.h. */
#include "domain/intents.h"

#include <string.h>

static const char *const names[INTENT_COUNT] = {
    "messages.read", "messages.write", "members.read", "interactions.receive", "voice.connect",
};

uint32_t rule_intent_bit(const char *name, size_t len)
{
    for (int i = 0; i < INTENT_COUNT; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return 1u << i;
    return 0;
}

const char *rule_intent_name(int i)
{
    return i >= 0 && i < INTENT_COUNT ? names[i] : NULL;
}
