// The people simulator's shared shapes: the world it reads (people, servers, channels), a
// person's page socket and what they are doing, the HTTP connections their requests share, and
// what is tallied. One thread, one epoll loop; see bench/people/main.c.
#ifndef PEOPLE_H
#define PEOPLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    KINDS_MAX = 16,
    ID_LEN = 36,
    TOKEN_MAX = 160,
    SERVERS_MAX = 4,
    CHANNELS_MAX = 32,
    RING = 32
};

// What an epoll event points at: a person's socket or one of the HTTP connections.
enum endpoint_kind { END_SOCKET, END_HTTP };

// The actions people take (model.c draws them), and the other things timed.
enum action {
    ACT_SWITCH,    // show another room: channel:view, its history, its read mark
    ACT_SCROLL,    // read older history in the room shown
    ACT_MEMBERS,   // open the member list (members:subscribe)
    ACT_UNREAD,    // read what is unread
    ACT_SEND,      // type (typing), then send
    ACT_REACT,     // react to a recent message
    ACT_RECONNECT, // the page's socket drops and resumes
    ACT_SEARCH,    // search the server's messages
    ACT_EDIT,      // edit one's last message
    ACT_IDLE,      // go idle, or come back
    ACT_COUNT,
    // timed but not drawn
    T_HISTORY = ACT_COUNT, // a history page (switch and scroll)
    T_MARK,                // the read mark after a switch
    T_TYPING,
    T_TICKET,
    T_SIGNIN,   // a fresh sign-in (POST /api/auth/login)
    T_DELIVERY, // a message's MESSAGE_CREATE at each person's socket, from its send
    T_COUNT,
};
extern const char *const timed_names[T_COUNT];

// Latencies in a log histogram: 2% wide buckets from 1 us to about 2,000 s.
enum { HIST_BUCKETS = 1100 };
struct hist {
    uint64_t n;
    uint32_t b[HIST_BUCKETS];
};
void hist_add(struct hist *h, int64_t us);
double hist_pct_ms(const struct hist *h, double p);

// A growable bit set: which of a server's messages a person received.
struct bits {
    uint8_t *b;
    size_t cap; // bytes
};
// Sets bit i; returns whether it was already set.
bool bits_set(struct bits *s, uint32_t i);
bool bits_has(const struct bits *s, uint32_t i);

struct place {
    char sid[ID_LEN + 1];
    int n_channels;
    char cids[CHANNELS_MAX][ID_LEN + 1];
    // the newest messages sent in each channel this run (from the sends' answers)
    char ring[CHANNELS_MAX][RING][ID_LEN + 1];
    int ring_n[CHANNELS_MAX];
    uint32_t next_seq; // the next message's number in this server
    struct bits sent;  // the numbers whose send was answered 2xx
    uint32_t members;  // how many people of the run are in it
};

// down → asking a ticket → dialing (the upgrade) → upgrading (waiting for Engine.IO's open) →
// open (CONNECT sent) → ready
enum socket_state { SOCK_DOWN, SOCK_TICKET, SOCK_DIALING, SOCK_UPGRADING, SOCK_OPEN, SOCK_READY };

struct person {
    enum endpoint_kind kind; // END_SOCKET: epoll events on fd point here
    int index;
    char token[TOKEN_MAX];
    int n_servers;
    int servers[SERVERS_MAX];
    struct bits seen[SERVERS_MAX];
    // the page's socket
    int fd;
    enum socket_state state;
    char *buf;
    size_t len, cap;
    char ticket[96];
    char pid[96];    // the session to resume (CONNECT's answer)
    char offset[24]; // the last event's position
    int64_t down_at; // when the socket went down (0: it is up)
    int attempts;    // reconnects tried since it went down
    bool dropped_by_server;
    // what they are doing
    int64_t next_at; // the next action (the heap's key)
    int heap_at;     // its place in the heap
    bool busy;       // an action's request is under way
    int room_server, room_channel;
    bool idle;
    int acks;         // the last acknowledgement ID used
    int64_t ack_at;   // members:subscribe sent, waiting for its ack (0: none)
    int64_t send_due; // typing said: the message goes at this time (0: none)
    char last_id[ID_LEN + 1];
    int last_server, last_channel;
    int64_t reconnect_at; // an ACT_RECONNECT under way: when it began
    int64_t ready_at;     // when the socket last became ready
    bool marking;         // a switch's history is answered: its read mark goes next
    uint32_t sending_seq; // the number of the message being sent
    char last_mark[64];   // the mark of one's last message (an edit keeps it)
};

struct world {
    int n_people, n_places, n_logins;
    struct person *people;
    struct place *places;
    char (*logins)[2][64]; // username, password
};

struct http;

#define PORTS_MAX 8

struct run {
    const char *host;
    int port; // the first node's
    int ports[PORTS_MAX], nports;
    struct world w;
    int epfd;
    struct person **heap; // by next_at
    int heap_n;
    struct http *http;
    uint64_t rng;
    char nonce[16]; // marks this run's messages
    bool measuring; // between the warm-up and the end
    bool acting;    // people act (not while draining)
    struct hist hist[T_COUNT];
    uint64_t failed[T_COUNT]; // answers other than 2xx
    uint64_t cut[T_COUNT];    // requests whose connection closed before an answer
    uint64_t actions[ACT_COUNT];
    uint64_t late[2]; // deliveries over 1 s after their send: on a socket up for 10 s, or not
    uint64_t events, deliveries, duplicates, gaps, refused, signed_out, reconnects;
    struct {
        char name[32];
        uint64_t n;
    } kinds[KINDS_MAX]; // the measured window's events by name
    int ready;          // sockets connected now
    size_t waiting_max; // requests waiting for a free HTTP connection, at most
    double logins_per_s;
    int64_t next_login;
    int login_next;
    // a storm: most sockets dropped by the server at once (a restart), until all are back
    int64_t storm_candidate, storm_from, storm_back;
    int storm_down_max;
};

// ---- the loop (main.c) ----
int64_t now_us(void);
void die(const char *what);
// A connection to the node of this index (the people and the HTTP connections are spread over
// the nodes, as a load balancer would).
int dial(const struct run *r, int index);
// Sends all of b on a non-blocking socket, waiting up to a second at a time for room: 0, 1 when
// it does not drain, -1 on an error (errno).
int send_whole(int fd, const char *b, size_t n);
void watch(struct run *r, int fd, uint32_t events, void *ptr);
void unwatch(struct run *r, int fd);
void schedule(struct run *r, struct person *p, int64_t at);
void timed(struct run *r, int what, int64_t us);

// ---- the page's socket (socket.c) ----
void socket_begin(struct run *r, struct person *p);
void socket_ticket(struct run *r, struct person *p, int what, int status, const char *body,
                   size_t n);
void socket_event(struct run *r, struct person *p, uint32_t events);
void socket_drop(struct run *r, struct person *p, const char *why, bool by_server);
void socket_emit(struct run *r, struct person *p, const char *text);

// ---- requests (http.c) ----
// What to do with an answer: the person (or NULL), and the kind of request.
typedef void (*http_done)(struct run *r, struct person *p, int what, int status, const char *body,
                          size_t n);
void http_start(struct run *r, int conns);
void http_request(struct run *r, struct person *p, int what, http_done done, const char *method,
                  const char *path, const char *token, const char *body);
void http_event(struct run *r, void *conn, uint32_t events);
size_t http_waiting(const struct run *r);
void http_stop(struct run *r);

// ---- the behaviour model (model.c) ----
void model_act(struct run *r, struct person *p);
void model_send_due(struct run *r, struct person *p);
void model_sign_in(struct run *r);
int64_t model_pause_us(struct run *r);
void model_delivered(struct run *r, struct person *p, const char *frame, size_t n);

#endif
