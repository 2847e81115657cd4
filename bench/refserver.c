/*
 * refserver: the floor a bridged daemon is measured against.
 *
 * A single-threaded epoll server on a Unix socket. Each newline-terminated line is parsed with
 * jansson (json_loadb) and answered {"id":<id>,"ok":true} with the request's id echoed (null when
 * there is none or the line is not a JSON object). Blank lines get no answer. Nothing else: no
 * state, no validation, no events.
 *
 * --sink skips the parse and answers {"id":null,"ok":true}: not an anchor, only a way to measure
 * how fast the load driver itself can go.
 *
 * usage: refserver --socket PATH [--sink]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct conn {
    int fd;
    char *in;
    size_t in_len, in_cap;
    char *out;
    size_t out_len, out_off, out_cap;
    int want_out; /* registered for EPOLLOUT */
};

static const char *socket_path;
static int sink;

static void die(const char *what) {
    fprintf(stderr, "refserver: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void on_signal(int sig) {
    (void)sig;
    if (socket_path) unlink(socket_path);
    _exit(0);
}

static void out_reserve(struct conn *c, size_t extra) {
    if (c->out_len + extra <= c->out_cap) return;
    if (c->out_off) {
        memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
        c->out_len -= c->out_off;
        c->out_off = 0;
        if (c->out_len + extra <= c->out_cap) return;
    }
    size_t cap = c->out_cap ? c->out_cap : 65536;
    while (cap < c->out_len + extra) cap *= 2;
    c->out = realloc(c->out, cap);
    if (!c->out) die("realloc");
    c->out_cap = cap;
}

static void answer(struct conn *c, const char *line, size_t n) {
    if (sink) {
        static const char ok[] = "{\"id\":null,\"ok\":true}\n";
        out_reserve(c, sizeof ok);
        memcpy(c->out + c->out_len, ok, sizeof ok - 1);
        c->out_len += sizeof ok - 1;
        return;
    }
    json_error_t err;
    json_t *req = json_loadb(line, n, 0, &err);
    json_t *id = json_is_object(req) ? json_object_get(req, "id") : NULL;
    char *id_text = NULL;
    if (json_is_integer(id) || json_is_string(id)) id_text = json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT);
    const char *idt = id_text ? id_text : "null";
    size_t idn = strlen(idt);
    out_reserve(c, idn + 24);
    memcpy(c->out + c->out_len, "{\"id\":", 6);
    memcpy(c->out + c->out_len + 6, idt, idn);
    memcpy(c->out + c->out_len + 6 + idn, ",\"ok\":true}\n", 12);
    c->out_len += 18 + idn;
    free(id_text);
    json_decref(req);
}

/* Write what the socket takes. Returns -1 if the peer is gone. */
static int flush_out(struct conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t w = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
        if (w > 0) { c->out_off += w; continue; }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        return -1;
    }
    c->out_off = c->out_len = 0;
    return 0;
}

static void close_conn(int ep, struct conn *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->in);
    free(c->out);
    free(c);
}

/* Read, answer complete lines, write. Returns -1 when the connection is finished. */
static int service(int ep, struct conn *c, unsigned events) {
    if (events & EPOLLIN || events & EPOLLHUP) {
        for (;;) {
            if (c->in_cap - c->in_len < 65536) {
                c->in_cap = c->in_cap ? c->in_cap * 2 : 262144;
                c->in = realloc(c->in, c->in_cap);
                if (!c->in) die("realloc");
            }
            ssize_t r = read(c->fd, c->in + c->in_len, c->in_cap - c->in_len);
            if (r == 0) return -1;
            if (r < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) break;
                return -1;
            }
            c->in_len += r;
            char *p = c->in, *end = c->in + c->in_len, *nl;
            while ((nl = memchr(p, '\n', end - p))) {
                size_t n = nl - p;
                if (n && p[n - 1] == '\r') n--;
                if (n) answer(c, p, n);
                p = nl + 1;
            }
            c->in_len = end - p;
            memmove(c->in, p, c->in_len);
            if (flush_out(c) < 0) return -1;
            /* Stop reading while the client is not taking its responses. */
            if (c->out_len - c->out_off > (1u << 20)) break;
        }
    }
    if (flush_out(c) < 0) return -1;
    int want = c->out_len > c->out_off;
    if (want != c->want_out) {
        struct epoll_event ev = { .events = want ? EPOLLOUT : EPOLLIN, .data.ptr = c };
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
        c->want_out = want;
    }
    return 0;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--socket") && i + 1 < argc) socket_path = argv[++i];
        else if (!strcmp(argv[i], "--sink")) sink = 1;
        else socket_path = NULL, i = argc;
    }
    if (!socket_path) {
        fprintf(stderr, "usage: refserver --socket PATH [--sink]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);

    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (lfd < 0) die("socket");
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (strlen(socket_path) >= sizeof sa.sun_path) { errno = ENAMETOOLONG; die(socket_path); }
    strcpy(sa.sun_path, socket_path);
    unlink(socket_path);
    if (bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0) die("bind");
    if (listen(lfd, 128) < 0) die("listen");
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event lev = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &lev);
    fprintf(stderr, "refserver: listening on %s\n", socket_path);

    struct epoll_event evs[64];
    for (;;) {
        int n = epoll_wait(ep, evs, 64, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            struct conn *c = evs[i].data.ptr;
            if (!c) {
                int fd;
                while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    c = calloc(1, sizeof *c);
                    c->fd = fd;
                    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
                }
                continue;
            }
            if (service(ep, c, evs[i].events) < 0) close_conn(ep, c);
        }
    }
}
