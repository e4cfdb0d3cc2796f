/* Thread names: see thread_name.h. */
#include "core/thread_name.h"

#include <sys/prctl.h>

void thread_name(const char *name)
{
    prctl(PR_SET_NAME, name, 0, 0, 0); /* a name is a help to operators, never required */
}
