/* A commit's news, told to what follows it: the state drops what changed, voice rights are
 * reviewed, another process's commit sweeps suspended applications; with several nodes the
 * relay carries it (and this node's voice sessions) to the others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "bus/relay.h"
#include "core/log.h"
#include "gateway/voice.h"
#include "serve/serve_private.h"
#include "state/state.h"
#include "state/voice.h"
#include "store/snapshot.h"
#include "store/writer.h"

/* Voice rights follow every change a commit made to a server, whatever route made it: a
 * member's change reviews that member's sessions there, any other the server's; a change of
 * everything (another process) reviews them all. Each node reviews its own sessions, for its
 * own marks and those relayed to it. Tokens and identities say nothing of servers. */
static void review_voice(struct serve *s, const char *what)
{
    char sid[UUID_LEN + 1], who[UUID_LEN + 1];
    struct bus_control ctl = {.all = !what};
    if (what && store_change_parse(what, sid, who))
        return;
    if (what) {
        memcpy(ctl.server, sid, sizeof ctl.server);
        if (!strncmp(what, STORE_CHANGE_MEMBER, strlen(STORE_CHANGE_MEMBER)))
            memcpy(ctl.user, who, sizeof ctl.user);
    }
    bus_publish_control(s->bus, BUS_KIND_VOICE_REVIEW, &ctl, NULL, 1);
}

/* The writer's news: the state drops what changed; another process's commit also makes the
 * gateway look for suspended applications (after the state has dropped their identities). */
void serve__on_change(void *arg, const char *sid)
{
    struct serve *s = arg;
    state_on_change(s->state, sid);
    review_voice(s, sid);
    if (!sid)
        bus_publish_control(s->bus, BUS_KIND_SWEEP, &(struct bus_control){.all = 0}, NULL, 1);
}

/* With several nodes, what this node's writer changed is the others' news too. */
void serve__on_change_shared(void *arg, const char *sid)
{
    struct serve *s = arg;
    serve__on_change(s, sid);
    bus_relay_change(s->relay, sid);
}

/* With several nodes, this node's voice sessions go to the others and theirs come here. */
static void on_voice_change(void *arg, const struct voice_session *s, int removed)
{
    struct serve *sv = arg;
    struct voice_session owned = *s;
    if (!owned.node[0])
        snprintf(owned.node, sizeof owned.node, "%s", bus_relay_node(sv->relay));
    char *text = state_voice_session_text(&owned);
    char key[2 * UUID_LEN + 2];
    snprintf(key, sizeof key, "%s:%s", owned.server_id, owned.user_id);
    if (text)
        bus_relay_voice(sv->relay, owned.node, key, text, removed);
    else
        log_error("voice: a session was not relayed: no memory");
    free(text);
}

static void on_peer_voice(void *arg, const char *text, size_t len, int removed)
{
    struct serve *sv = arg;
    gateway_voice_remote(sv->gateway, text, len, removed, bus_relay_node(sv->relay));
}

static void on_peer_voice_gone(void *arg, const char *node)
{
    struct serve *sv = arg;
    gateway_voice_remote_drop(sv->gateway, node);
}

/* A request answered by this node is followed at once by one to another: that one must see the
 * change too. */
void serve__on_changed_shared(void *arg)
{
    struct serve *s = arg;
    bus_relay_settle(s->relay);
}

void serve__share_voice(struct serve *s)
{
    state_voice_on_change(s->voice, on_voice_change, s);
    bus_relay_on_voice(s->relay, &(struct bus_relay_voice){on_peer_voice, on_peer_voice_gone, s});
}
