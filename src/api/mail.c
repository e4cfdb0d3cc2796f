/* E-mail from Praça: see mail.h. */
#include "api/mail.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/crypto.h"
#include "core/log.h"
#include "core/uuid.h"
#include "core/workers.h"

#define MAIL_TIMEOUT_S   30
#define MAIL_MAX         8192
#define MAIL_SUBJECT_MAX 200 /* bytes of a subject: ours are short */

struct mailer {
    struct workers *thread;
    char url[1024], from[256];
};

struct mail {
    struct job job; /* first */
    struct mailer *m;
    char to[256];
    struct buf text; /* the message, headers and body, CRLF lines */
    size_t sent;
};

static size_t read_text(char *out, size_t size, size_t n, void *arg)
{
    struct mail *x = arg;
    size_t left = x->text.len - x->sent, room = size * n;
    size_t k = left < room ? left : room;
    memcpy(out, x->text.data + x->sent, k);
    x->sent += k;
    return k;
}

static void send_run(struct job *job, void *thread_ctx)
{
    (void)thread_ctx;
    struct mail *x = (struct mail *)job;
    CURL *curl = curl_easy_init();
    struct curl_slist *rcpt = curl_slist_append(NULL, x->to);
    CURLcode rc = CURLE_FAILED_INIT;
    if (curl && rcpt) {
        curl_easy_setopt(curl, CURLOPT_URL, x->m->url);
        curl_easy_setopt(curl, CURLOPT_MAIL_FROM, x->m->from);
        curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_text);
        curl_easy_setopt(curl, CURLOPT_READDATA, x);
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)MAIL_TIMEOUT_S);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
        rc = curl_easy_perform(curl);
    }
    if (rc != CURLE_OK)
        log_error("mail: not sent (%s)", curl_easy_strerror(rc));
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(curl);
    buf_cleanup(&x->text);
    free(x);
}

/* The thread needs no context of its own: the mailer stands in (a NULL context is a failure). */
static void *own_nothing(void *arg, int index)
{
    (void)index;
    return arg;
}

static void keep_nothing(void *ctx)
{
    (void)ctx;
}

struct mailer *api_mailer_new(const struct config *cfg, int *failed)
{
    *failed = 0;
    if (!cfg->smtp_url[0])
        return NULL;
    struct mailer *m = calloc(1, sizeof *m);
    if (m) {
        snprintf(m->url, sizeof m->url, "%s", cfg->smtp_url);
        snprintf(m->from, sizeof m->from, "%s", cfg->mail_from);
        m->thread = workers_new("praca-mail", 1, own_nothing, keep_nothing, send_run, m);
    }
    if (!m || !m->thread) {
        free(m);
        *failed = 1;
        return NULL;
    }
    return m;
}

void api_mailer_free(struct mailer *m)
{
    if (!m)
        return;
    workers_free(m->thread);
    free(m);
}

/* A header's text as RFC 2047 says when it is not plain ASCII: =?UTF-8?B?…?=. */
static int header_text(struct buf *b, const char *text)
{
    int ascii = 1;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        ascii &= *p >= 0x20 && *p < 0x7f;
    if (ascii)
        return buf_append_str(b, text);
    size_t n = strlen(text);
    char encoded[4 * ((MAIL_SUBJECT_MAX + 2) / 3) + 1];
    if (n > MAIL_SUBJECT_MAX)
        return BUF_ETOOBIG;
    crypto_base64((const unsigned char *)text, n, encoded);
    int rc = buf_append_str(b, "=?UTF-8?B?");
    if (rc == BUF_OK)
        rc = buf_append_str(b, encoded);
    return rc == BUF_OK ? buf_append_str(b, "?=") : rc;
}

int api__mail(struct mailer *m, const char *to, const char *subject, const char *body)
{
    struct mail *x = m ? calloc(1, sizeof *x) : NULL;
    if (!x)
        return -1;
    x->m = m;
    snprintf(x->to, sizeof x->to, "%s", to);
    buf_init(&x->text, MAIL_MAX);
    char id[UUID_LEN + 1], date[64];
    uuid_v7(id);
    time_t now = (time_t)(clock_now_ms() / 1000);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    const char *at = strchr(m->from, '@');
    int rc = buf_appendf(&x->text,
                         "Date: %s\r\nFrom: %s\r\nTo: %s\r\nMessage-ID: <%s%s>\r\n"
                         "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n"
                         "Content-Transfer-Encoding: 8bit\r\nSubject: ",
                         date, m->from, to, id, at ? at : "@praca");
    if (rc == BUF_OK)
        rc = header_text(&x->text, subject);
    if (rc == BUF_OK)
        rc = buf_append_str(&x->text, "\r\n\r\n");
    for (const char *p = body; rc == BUF_OK && *p; p++) /* bare LFs become CRLF */
        rc = *p == '\n' ? buf_append(&x->text, "\r\n", 2) : buf_append(&x->text, p, 1);
    if (rc != BUF_OK || workers_try_submit(m->thread, &x->job, MAIL_QUEUE_MAX)) {
        log_error("mail: dropped (%s)", rc != BUF_OK ? "too long" : "too many waiting");
        buf_cleanup(&x->text);
        free(x);
        return -1;
    }
    return 0;
}
