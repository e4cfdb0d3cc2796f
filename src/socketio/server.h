/*
 * Socket.IO protocol 5 on Engine.IO sessions: namespaces, CONNECT with its auth object (the
 * application may decide later, e.g. after a database lookup), CONNECT_ERROR, EVENT and ACK
 * both ways, binary attachments, DISCONNECT, and the connect timeout. It knows nothing of chat.
 */
#ifndef PRACA_SOCKETIO_SERVER_H
#define PRACA_SOCKETIO_SERVER_H
#include <jansson.h>
#include <stdint.h>

#include "core/buf.h"
#include "engineio/server.h"

struct sio_server;
struct sio_socket; /* one client on one namespace */

struct sio_attachment {
    const char *data;
    size_t len;
};

enum sio_connect_decision { SIO_ACCEPT, SIO_REFUSE, SIO_LATER };

struct sio_handlers {
    /* A CONNECT to one of the server's namespaces. Return SIO_ACCEPT, SIO_REFUSE (with
     * *message, a static string), or SIO_LATER and call sio_connect_result. */
    enum sio_connect_decision (*on_connect)(void *user, struct sio_socket *sock, json_t *auth,
                                            const char **message);
    /* An EVENT (args is the array, name first). ack_id < 0 when no ack is asked. */
    void (*on_event)(void *user, struct sio_socket *sock, json_t *args, int64_t ack_id,
                     const struct sio_attachment *att, int natt);
    /* The socket leaves (client disconnect, kick, transport closed); freed afterwards. */
    void (*on_disconnect)(void *user, struct sio_socket *sock, const char *reason);
};

struct sio_config {
    const char *const *namespaces; /* NULL-terminated, e.g. {"/", NULL} */
    int connect_timeout_ms;
};

struct sio_server *sio_server_new(uv_loop_t *loop, const struct eio_config *eio,
                                  const struct sio_config *cfg, const struct sio_handlers *h,
                                  void *user);
/* The Engine.IO sessions under the server, as eio_server_* does them: a request of the gateway's
 * path; every transport closed (no Socket.IO disconnect, so clients come back); how many are
 * left; the sessions released at the end. */
void sio_server_handle(struct sio_server *srv, struct http_exchange *ex);
void sio_server_close_all(struct sio_server *srv);
size_t sio_server_count(const struct sio_server *srv);
void sio_server_release_all(struct sio_server *srv);
void sio_server_free(struct sio_server *srv);

/* Finds a socket by its id (for answers that arrive later); NULL when it is gone. */
struct sio_socket *sio_server_find(struct sio_server *srv, const char *id);
/* The decision for a SIO_LATER connect. */
void sio_connect_result(struct sio_socket *sock, int accept, const char *message);
/* Accepts with a private session id in the answer ({"sid":…,"pid":…}: connection-state
 * recovery). */
void sio_connect_accept_pid(struct sio_socket *sock, const char *pid);

const char *sio_socket_id(const struct sio_socket *sock);
const char *sio_socket_nsp(const struct sio_socket *sock);
void *sio_socket_data(const struct sio_socket *sock);
void sio_socket_set_data(struct sio_socket *sock, void *data);
/* Sends an already encoded packet of the "/" namespace ("2[…]" → "42[…]"). */
int sio_socket_send_packet(struct sio_socket *sock, const char *packet, size_t len);
/* eio_socket_allow for this socket's session. */
void sio_socket_allow(struct sio_socket *sock, size_t bytes, uint64_t ms);
/* A packet of the "/" namespace framed once for many sockets (an event to many users). */
struct sio_prepared {
    struct eio_prepared eio;
};
int sio_prepare(struct sio_prepared *p, const char *packet, size_t len);
void sio_prepared_cleanup(struct sio_prepared *p);
int sio_socket_send_prepared(struct sio_socket *sock, const struct sio_prepared *p);
/* Emits args (a JSON array, name first), with binary attachments when natt > 0. */
int sio_socket_emit(struct sio_socket *sock, json_t *args, const struct sio_attachment *att,
                    int natt);
int sio_socket_ack(struct sio_socket *sock, int64_t id, json_t *args,
                   const struct sio_attachment *att, int natt);
/* Server-side disconnect: DISCONNECT is sent first so the client does not reconnect; the
 * Engine.IO session closes when no namespace is left. */
void sio_socket_disconnect(struct sio_socket *sock);
/* Closes the socket's Engine.IO session without a Socket.IO word: the client takes it for a
 * lost connection and reconnects (a CONNECT_ERROR would be final). */
void sio_socket_close_transport(struct sio_socket *sock);

#endif
