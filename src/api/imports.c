/*
 * A community's history imported from the page (docs/importing.md): a person uploads an export
 * (POST /api/imports, one file of at most --import-max-mb: a Praça archive, a Mattermost bulk
 * export, a DiscordChatExporter JSON file, or a Slack export's zip) and follows it (GET
 * /api/imports). The node runs `praca import` on the file as a process of its own,
 * --imports-at-once at a time: the import's memory and time are never the server's, and it writes
 * as the command does beside a live server (a transaction per batch, no event), telling its job row
 * how far it is. The node reads the command's last words and marks the job failed with them when it
 * fails.
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_addclosefrom_np (glibc 2.34) */
#include <errno.h>
#include <fcntl.h>
#include <http_parser.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "http/upload.h"
#include "store/import_jobs.h"

extern char **environ;

#define SERVER_NAME_MAX 100
#define LAST_WORDS      300 /* of the command's stderr, kept for the job's error */
#define ARGS_MAX        32

static const struct api_limit IMPORT_LIMIT = {"import", 5, 24 * 3600 * 1000};
static const char *const FORMATS[] = {"praca-archive", "mattermost", "discord", "slack"};

/* One import running: the command's process, its stderr, and the file it reads. */
struct run {
    struct api_service *svc;
    char id[UUID_LEN + 1], path[HTTP_UPLOAD_PATH];
    pid_t pid;
    int err; /* the read end of the command's stderr */
};

static atomic_int running; /* on this node, of --imports-at-once */

/* The command's stderr into the log, its last line kept; then its end. A failure marks the job. */
static void *follow(void *arg)
{
    struct run *r = arg;
    char chunk[512], last[LAST_WORDS + 1] = "", line[LAST_WORDS + 1] = "";
    size_t len = 0;
    for (ssize_t n; (n = read(r->err, chunk, sizeof chunk)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        for (ssize_t i = 0; i < n; i++) {
            if (chunk[i] != '\n') {
                if (len < LAST_WORDS)
                    line[len++] = chunk[i];
                continue;
            }
            line[len] = 0;
            if (len) {
                log_info("import %s: %s", r->id, line);
                memcpy(last, line, len + 1);
            }
            len = 0;
        }
        if (n < 0)
            break;
    }
    close(r->err);
    int status = 0;
    while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
        ;
    unlink(r->path);
    atomic_fetch_sub(&running, 1); /* before the job reads as ended: the node is free again */
    int failed = !WIFEXITED(status) || WEXITSTATUS(status);
    const char *why = strncmp(last, "praca import: ", 14) ? last : last + 14;
    size_t at = strlen(r->path); /* the node's own path is none of the person's business */
    if (!strncmp(why, r->path, at) && !strncmp(why + at, ": ", 2))
        why += at + 2;
    struct store_import_job_end end = {r->id, failed ? (*why ? why : "a importação parou") : NULL,
                                       clock_now_ms()};
    store_import_job_end(r->svc->writer, &end);
    if (failed)
        log_error("import %s: ended with status %d", r->id, status);
    free(r);
    return NULL;
}

/* praca import FORMAT PATH --owner-id ID --job ID [--server NAME], on this node's data. */
struct what {
    const char *format, *server_name, *team; /* team: a Mattermost export's, or NULL */
};

static int spawn_import(struct run *r, const struct config *cfg, const struct store_files *files,
                        const struct what *w, const char *owner_id)
{
    const char *argv[ARGS_MAX];
    int n = 0;
    argv[n++] = "praca";
    argv[n++] = "import";
    argv[n++] = w->format;
    argv[n++] = r->path;
    argv[n++] = "--owner-id";
    argv[n++] = owner_id;
    argv[n++] = "--job";
    argv[n++] = r->id;
    if (w->server_name) {
        argv[n++] = "--server";
        argv[n++] = w->server_name;
    }
    if (w->team) {
        argv[n++] = "--team";
        argv[n++] = w->team;
    }
    argv[n++] = cfg->database_url[0] ? "--database-url" : "--data";
    argv[n++] = cfg->database_url[0] ? cfg->database_url : cfg->data;
    argv[n++] = "--files";
    argv[n++] = files->root;
    argv[n++] = "--files-store";
    argv[n++] = files->kind == STORE_FILES_DATABASE ? "database" : "disk";
    argv[n++] = "--site-url";
    argv[n++] = r->svc->site_url; /* the origin files are linked at, as the server says it */
    /* The export's files it fetches: as large as an upload's, as much in all as the export. */
    char file_max[16], import_max[16];
    snprintf(file_max, sizeof file_max, "%d", cfg->file_max_mb);
    snprintf(import_max, sizeof import_max, "%d", cfg->import_max_mb);
    argv[n++] = "--file-max-mb";
    argv[n++] = file_max;
    argv[n++] = "--import-max-mb";
    argv[n++] = import_max;
    if (cfg->allow_private_endpoints)
        argv[n++] = "--allow-private-endpoints";
    argv[n] = NULL;
    int pipefd[2];
    if (pipe(pipefd))
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
    /* none of the server's sockets and files goes with it */
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    int rc = posix_spawn(&r->pid, "/proc/self/exe", &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (rc) {
        close(pipefd[0]);
        return -1;
    }
    r->err = pipefd[0];
    return 0;
}

/* The format, the server's name, the team and the file, each as the route takes it: 0, or -1
 * answered. */
static int read_import(struct api_call *c, struct what *w)
{
    json_t *body = api__body(c);
    if (!body)
        return -1;
    const char **format = &w->format, **name = &w->server_name;
    *format = json_string_value(json_object_get(body, "format"));
    *name = json_string_value(json_object_get(body, "serverName"));
    w->team = json_string_value(json_object_get(body, "team"));
    int known = 0;
    for (size_t i = 0; *format && i < sizeof FORMATS / sizeof *FORMATS; i++)
        known |= !strcmp(*format, FORMATS[i]);
    if (!known) {
        api__bad(c, "format", "deve ser praca-archive, mattermost, discord ou slack");
        return -1;
    }
    size_t len = *name ? strlen(*name) : 0;
    if (*name && (!len || len > 4 * SERVER_NAME_MAX)) {
        api__bad(c, "serverName", "de 1 a 100 caracteres");
        return -1;
    }
    if (!*name && strcmp(*format, "praca-archive")) {
        api__bad(c, "serverName", "obrigatório");
        return -1;
    }
    if (w->team && (strcmp(*format, "mattermost") || !*w->team || strlen(w->team) > 64)) {
        api__bad(c, "team", "só numa exportação do Mattermost, de 1 a 64 caracteres");
        return -1;
    }
    const struct http_upload *up = c->req->upload;
    if (!up || up->nfiles != 1) {
        api__bad(c, "file", "envie o arquivo exportado, um em multipart/form-data");
        return -1;
    }
    return 0;
}

/* The upload moved to where the import reads it (files/imports/<job>): 0, or -1. */
static int place_file(struct api_call *c, struct run *r)
{
    char dir[sizeof c->svc->files.root + 16];
    snprintf(dir, sizeof dir, "%s/imports", c->svc->files.root);
    if (mkdir(dir, 0700) && errno != EEXIST)
        return -1;
    snprintf(r->path, sizeof r->path, "%s/%s", dir, r->id);
    struct http_upload_file *f = &c->req->upload->files[0];
    if (rename(f->path, r->path))
        return -1;
    f->path[0] = 0; /* taken */
    return 0;
}

static void import_start(struct api_call *c)
{
    const struct config *cfg = c->svc->cfg;
    struct what w;
    if (!cfg->import_max_mb) {
        api__error(c, 403, "Importar pela página está desligado neste Praça");
        return;
    }
    if (read_import(c, &w) || api__limit_hit(c, &IMPORT_LIMIT))
        return;
    if (atomic_fetch_add(&running, 1) >= cfg->imports_at_once) {
        atomic_fetch_sub(&running, 1);
        api__error(c, 503, "Outra importação está em andamento: tente daqui a alguns minutos");
        return;
    }
    struct run *r = calloc(1, sizeof *r);
    const struct http_upload_file *f = &c->req->upload->files[0];
    struct store_import_job_start s = {.owner_id = c->me.user_id,
                                       .format = w.format,
                                       .file_name = f->filename,
                                       .size = (int64_t)f->size,
                                       .now = clock_now_ms()};
    int rc = r ? STORE_DONE : STORE_ERR;
    if (r) {
        r->svc = c->svc;
        uuid_v7(r->id);
        s.id = r->id;
        rc = store_import_job_start(c->svc->writer, &s);
    }
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (rc == STORE_DONE && !place_file(c, r) &&
        !spawn_import(r, cfg, &c->svc->files, &w, c->me.user_id)) {
        if (pthread_create(&t, &attr, follow, r)) { /* cannot follow it: stop it */
            kill(r->pid, SIGKILL);
            waitpid(r->pid, NULL, 0);
            close(r->err);
            rc = STORE_ERR;
        }
    } else if (rc == STORE_DONE) {
        rc = STORE_ERR;
    }
    pthread_attr_destroy(&attr);
    if (rc != STORE_DONE) {
        if (r && r->path[0])
            unlink(r->path);
        if (rc == STORE_DONE || rc == STORE_ERR) {
            struct store_import_job_end fail = {r ? r->id : "", "não começou", clock_now_ms()};
            if (r)
                store_import_job_end(c->svc->writer, &fail);
        }
        atomic_fetch_sub(&running, 1);
        free(r);
        if (rc == STORE_REFUSED)
            api__error(c, 409, "Uma importação sua já está em andamento");
        else
            api__internal(c);
        return;
    }
    json_t *list = store_import_jobs_json(c->db, c->me.user_id, clock_now_ms());
    api__reply(c, 202,
               json_pack("{so}", "import",
                         list && json_array_size(list) ? json_incref(json_array_get(list, 0))
                                                       : json_null()));
    json_decref(list);
}

static void imports_list(struct api_call *c)
{
    json_t *list = store_import_jobs_json(c->db, c->me.user_id, clock_now_ms());
    if (!list)
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "imports", list));
}

const struct api_route api_import_routes[] = {
    API_ROUTE(POST, "/api/imports", import_start, API_PERSON, .body = API_BODY_IMPORT),
    API_ROUTE(GET, "/api/imports", imports_list, API_PERSON),
    {0},
};
