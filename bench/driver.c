/*
 * driver: load generator for bridged-style NDJSON servers on a Unix socket.
 *
 * It does not parse JSON. An output line that starts with {"event" is an event frame; every other
 * line is a response; a response containing "ok":false is counted as an error.
 *
 * Modes
 *   pipeline  send N frames built from a template, keeping at most W requests outstanding
 *             (non-blocking socket, poll()); report frames/s and events/s.
 *   rtt       send N frames one at a time, each after the previous response; report latency
 *             percentiles in microseconds.
 *   hold      connect, hello, run the setup, print a "ready" line, then keep the session(s) open
 *             until stdin closes (used to keep views alive while another driver measures).
 *
 * Every client (--clients K, one thread and one connection each) sends hello if asked, runs the
 * setup file (all its lines, pipelined, all responses awaited; any error response is fatal), waits
 * at a barrier for the others, then runs the timed phase. One JSON line of results goes to stdout.
 *
 * Template tokens: %i request id, %t tag (cycles over --tags LO..HI), %c a counter that is new for
 * every op (so an update always changes the prop), %B the --batch B expansions of --inner joined
 * with commas (each one advances %t and %c), %% a percent sign.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum mode { MODE_PIPELINE, MODE_RTT, MODE_HOLD };

struct options {
    const char *socket_path;
    enum mode mode;
    long frames;          /* timed frames per client */
    long warmup;          /* rtt: untimed frames before measuring */
    int window;           /* pipeline: max outstanding requests */
    int clients;
    int hello;
    const char *setup_path;
    const char *template;
    const char *inner;
    int batch;
    long tag_lo, tag_hi;
};

static struct options opt = {
    .mode = MODE_PIPELINE,
    .frames = 100000,
    .warmup = 1000,
    .window = 512,
    .clients = 1,
    .hello = 1,
    .template = "{\"id\":%i,\"op\":\"update\",\"tag\":%t,\"props\":{\"count\":%c}}",
    .inner = "{\"op\":\"update\",\"tag\":%t,\"props\":{\"count\":%c}}",
    .batch = 100,
    .tag_lo = 1,
    .tag_hi = 1000,
};

/* The setup file, split into lines once and shared read-only by every client. */
static char *setup_data;
static size_t setup_count;
static char **setup_lines;
static size_t *setup_lens;

static pthread_barrier_t barrier;
static struct timespec t_start;

static void die(const char *fmt, const char *arg) {
    fprintf(stderr, "driver: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
    exit(2);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ---------- growable byte buffer ---------- */

struct buf {
    char *data;
    size_t len, off, cap; /* bytes data[off..len) are pending */
};

static void buf_reserve(struct buf *b, size_t extra) {
    if (b->off > 0 && b->len + extra > b->cap) {
        memmove(b->data, b->data + b->off, b->len - b->off);
        b->len -= b->off;
        b->off = 0;
    }
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 65536;
    while (cap < b->len + extra) cap *= 2;
    b->data = realloc(b->data, cap);
    if (!b->data) die("%s", "out of memory");
    b->cap = cap;
}

static inline void buf_put(struct buf *b, const char *s, size_t n) {
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static inline void buf_put_long(struct buf *b, long v) {
    char tmp[24];
    int i = sizeof tmp;
    unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
    do { tmp[--i] = '0' + u % 10; u /= 10; } while (u);
    if (v < 0) tmp[--i] = '-';
    buf_put(b, tmp + i, sizeof tmp - i);
}

/* ---------- templates ---------- */

struct segment { const char *lit; size_t len; char token; };
struct template { struct segment *segs; int n; int has_batch; };

static struct template compile(const char *s) {
    struct template t = { calloc(strlen(s) + 2, sizeof(struct segment)), 0, 0 };
    const char *lit = s;
    for (const char *p = s;; p++) {
        if (*p == '%' || *p == 0) {
            char tok = *p ? p[1] : 0;
            if (*p && tok != 'i' && tok != 't' && tok != 'c' && tok != 'B' && tok != '%')
                die("unknown template token in: %s", s);
            t.segs[t.n++] = (struct segment){ lit, (size_t)(p - lit), tok == '%' ? 0 : tok };
            t.has_batch |= tok == 'B';
            if (!*p) break;
            if (tok == '%') t.segs[t.n++] = (struct segment){ "%", 1, 0 };
            p++;
            lit = p + 1;
        }
    }
    return t;
}

static struct template tpl_outer, tpl_inner;

struct gen { long id; long op; };

static void expand(struct buf *b, const struct template *t, struct gen *g) {
    long span = opt.tag_hi - opt.tag_lo + 1;
    for (int i = 0; i < t->n; i++) {
        const struct segment *s = &t->segs[i];
        if (s->len) buf_put(b, s->lit, s->len);
        switch (s->token) {
        case 'i': buf_put_long(b, g->id); break;
        case 't': buf_put_long(b, opt.tag_lo + g->op % span); break;
        case 'c': buf_put_long(b, g->op + 1); break;
        case 'B':
            for (int k = 0; k < opt.batch; k++) {
                if (k) buf_put(b, ",", 1);
                expand(b, &tpl_inner, g);
                g->op++;
            }
            break;
        }
    }
    if (t == &tpl_outer && !t->has_batch) g->op++;
}

/* ---------- one connection ---------- */

struct client {
    int index;
    int fd;
    struct buf in, out;
    long responses, events, errors;
    char first_error[512];
    double t_end;
    uint64_t *lat; /* rtt: one latency per timed frame, ns */
    long nlat;
};

static int connect_socket(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die("%s", "socket");
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (strlen(opt.socket_path) >= sizeof sa.sun_path) die("socket path too long: %s", opt.socket_path);
    strcpy(sa.sun_path, opt.socket_path);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die("connect %s", opt.socket_path);
    int sz = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
    return fd;
}

static void set_nonblocking(int fd, int on) {
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* Classify every complete line in c->in; returns the number of responses seen. */
static long consume_lines(struct client *c) {
    long got = 0;
    char *p = c->in.data + c->in.off, *end = c->in.data + c->in.len;
    for (;;) {
        char *nl = memchr(p, '\n', end - p);
        if (!nl) break;
        size_t n = nl - p;
        if (n == 0 || (n == 1 && p[0] == '\r')) {
            /* blank line: nothing */
        } else if (n >= 8 && memcmp(p, "{\"event\"", 8) == 0) {
            c->events++;
        } else {
            got++;
            if (memmem(p, n, "\"ok\":false", 10)) {
                if (c->errors++ == 0) {
                    size_t k = n < sizeof c->first_error - 1 ? n : sizeof c->first_error - 1;
                    memcpy(c->first_error, p, k);
                    c->first_error[k] = 0;
                }
            }
        }
        p = nl + 1;
    }
    c->in.off = p - c->in.data;
    if (c->in.off == c->in.len) c->in.off = c->in.len = 0;
    return got;
}

/* Read what is available (non-blocking). Returns 0 on EOF. */
static int read_some(struct client *c) {
    for (;;) {
        buf_reserve(&c->in, 262144);
        ssize_t r = read(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len);
        if (r > 0) {
            c->in.len += r;
            if ((size_t)r < 65536) return 1;
            continue;
        }
        if (r == 0) return 0;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 1;
        die("%s", "read");
    }
}

static void write_some(struct client *c) {
    while (c->out.len > c->out.off) {
        ssize_t w = write(c->fd, c->out.data + c->out.off, c->out.len - c->out.off);
        if (w > 0) { c->out.off += w; continue; }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        die("%s", "write");
    }
    c->out.off = c->out.len = 0;
}

/*
 * Pipeline `total` frames produced by `next` (which appends one frame plus '\n'), keeping at most
 * `window` outstanding. Returns when every response has arrived.
 */
typedef void (*next_fn)(struct client *, long k, struct gen *);

static void pipeline(struct client *c, long total, int window, next_fn next, struct gen *g) {
    long sent = 0, answered = 0;
    set_nonblocking(c->fd, 1);
    while (answered < total) {
        /* Fill the output up to the window, in chunks so writes start early. */
        while (sent < total && sent - answered < window && c->out.len - c->out.off < 262144) {
            next(c, sent, g);
            sent++;
        }
        if (c->out.len > c->out.off) write_some(c);
        struct pollfd pfd = { c->fd, POLLIN | (c->out.len > c->out.off ? POLLOUT : 0), 0 };
        if (poll(&pfd, 1, -1) < 0) {
            if (errno == EINTR) continue;
            die("%s", "poll");
        }
        if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
            int open = read_some(c);
            answered += consume_lines(c);
            if (!open && answered < total) {
                errno = 0;
                die("%s", "server closed the connection early");
            }
        }
    }
    set_nonblocking(c->fd, 0);
}

static void next_setup(struct client *c, long k, struct gen *g) {
    (void)g;
    buf_put(&c->out, setup_lines[k], setup_lens[k]);
    buf_put(&c->out, "\n", 1);
}

static void next_template(struct client *c, long k, struct gen *g) {
    (void)k;
    g->id++;
    expand(&c->out, &tpl_outer, g);
    buf_put(&c->out, "\n", 1);
}

static void next_hello(struct client *c, long k, struct gen *g) {
    (void)k; (void)g;
    static const char hello[] = "{\"id\":\"hello\",\"op\":\"hello\",\"protocol\":1,\"client\":\"bench-driver\"}\n";
    buf_put(&c->out, hello, sizeof hello - 1);
}

static void check_errors(struct client *c, const char *phase) {
    if (c->errors) {
        fprintf(stderr, "driver: client %d: %ld error response(s) during %s; first: %s\n",
                c->index, c->errors, phase, c->first_error);
        exit(3);
    }
}

static void run_rtt(struct client *c, struct gen *g) {
    long total = opt.warmup + opt.frames;
    c->lat = malloc(sizeof(uint64_t) * (opt.frames ? opt.frames : 1));
    for (long k = 0; k < total; k++) {
        c->out.off = c->out.len = 0;
        next_template(c, k, g);
        uint64_t t0 = now_ns();
        for (size_t off = 0; off < c->out.len;) {
            ssize_t w = write(c->fd, c->out.data + off, c->out.len - off);
            if (w < 0) { if (errno == EINTR) continue; die("%s", "write"); }
            off += w;
        }
        long got = 0;
        while (!got) {
            buf_reserve(&c->in, 65536);
            ssize_t r = read(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len);
            if (r < 0) { if (errno == EINTR) continue; die("%s", "read"); }
            if (r == 0) { errno = 0; die("%s", "server closed the connection early"); }
            c->in.len += r;
            got = consume_lines(c);
        }
        uint64_t t1 = now_ns();
        if (k >= opt.warmup) {
            c->responses += got;
            c->lat[c->nlat++] = t1 - t0;
        }
    }
    c->out.off = c->out.len = 0;
}

static void *client_main(void *arg) {
    struct client *c = arg;
    struct gen g = { 0, 0 };
    c->fd = connect_socket();
    if (opt.hello) {
        pipeline(c, 1, 1, next_hello, &g);
        check_errors(c, "hello");
    }
    if (setup_count) {
        pipeline(c, (long)setup_count, opt.window, next_setup, &g);
        check_errors(c, "setup");
    }
    c->responses = c->events = 0;
    pthread_barrier_wait(&barrier); /* every client is set up */
    pthread_barrier_wait(&barrier); /* main has taken t_start */
    if (opt.mode == MODE_PIPELINE) {
        pipeline(c, opt.frames, opt.window, next_template, &g);
        c->responses = opt.frames;
    } else if (opt.mode == MODE_RTT) {
        run_rtt(c, &g);
    }
    c->t_end = now_s();
    pthread_barrier_wait(&barrier); /* hold mode: main waits for stdin before releasing this */
    return NULL;
}

static void load_setup(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open setup file %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    setup_data = malloc(size + 1);
    if (fread(setup_data, 1, size, f) != (size_t)size) die("cannot read %s", path);
    fclose(f);
    setup_data[size] = 0;
    size_t cap = 1024;
    setup_lines = malloc(cap * sizeof *setup_lines);
    setup_lens = malloc(cap * sizeof *setup_lens);
    char *end = setup_data + size;
    for (char *p = setup_data, *next; p < end; p = next) {
        char *nl = memchr(p, '\n', end - p);
        char *e = nl ? nl : end;
        next = nl ? nl + 1 : end;
        size_t n = e - p;
        if (n && p[n - 1] == '\r') n--;
        if (n) {
            if (setup_count == cap) {
                cap *= 2;
                setup_lines = realloc(setup_lines, cap * sizeof *setup_lines);
                setup_lens = realloc(setup_lens, cap * sizeof *setup_lens);
            }
            setup_lines[setup_count] = p;
            setup_lens[setup_count++] = n;
        }
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct(const uint64_t *v, long n, double p) {
    if (n == 0) return 0;
    long i = (long)(p * (n - 1) + 0.5);
    return v[i] / 1000.0;
}

static void usage(void) {
    fprintf(stderr,
        "usage: driver --socket PATH [--mode pipeline|rtt|hold] [--frames N] [--window W]\n"
        "              [--clients K] [--no-hello] [--setup FILE] [--template T] [--inner T]\n"
        "              [--batch B] [--tags LO-HI] [--warmup N]\n");
    exit(2);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-hello")) { opt.hello = 0; continue; }
        if (!v) usage();
        i++;
        if (!strcmp(a, "--socket")) opt.socket_path = v;
        else if (!strcmp(a, "--mode")) {
            if (!strcmp(v, "pipeline")) opt.mode = MODE_PIPELINE;
            else if (!strcmp(v, "rtt")) opt.mode = MODE_RTT;
            else if (!strcmp(v, "hold")) opt.mode = MODE_HOLD;
            else usage();
        }
        else if (!strcmp(a, "--frames")) opt.frames = atol(v);
        else if (!strcmp(a, "--warmup")) opt.warmup = atol(v);
        else if (!strcmp(a, "--window")) opt.window = atoi(v);
        else if (!strcmp(a, "--clients")) opt.clients = atoi(v);
        else if (!strcmp(a, "--setup")) opt.setup_path = v;
        else if (!strcmp(a, "--template")) opt.template = v;
        else if (!strcmp(a, "--inner")) opt.inner = v;
        else if (!strcmp(a, "--batch")) opt.batch = atoi(v);
        else if (!strcmp(a, "--tags")) {
            if (sscanf(v, "%ld-%ld", &opt.tag_lo, &opt.tag_hi) != 2 || opt.tag_hi < opt.tag_lo) usage();
        }
        else usage();
    }
    if (!opt.socket_path || opt.clients < 1 || opt.window < 1 || opt.frames < 0) usage();
    tpl_outer = compile(opt.template);
    tpl_inner = compile(opt.inner);
    if (opt.setup_path) load_setup(opt.setup_path);

    struct client *cs = calloc(opt.clients, sizeof *cs);
    pthread_t *th = calloc(opt.clients, sizeof *th);
    pthread_barrier_init(&barrier, NULL, opt.clients + 1);
    for (int i = 0; i < opt.clients; i++) {
        cs[i].index = i;
        if (pthread_create(&th[i], NULL, client_main, &cs[i])) die("%s", "pthread_create");
    }
    pthread_barrier_wait(&barrier);
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    double t0 = t_start.tv_sec + t_start.tv_nsec / 1e9;
    struct rusage ru0;
    getrusage(RUSAGE_SELF, &ru0);
    pthread_barrier_wait(&barrier);

    if (opt.mode == MODE_HOLD) {
        printf("{\"ready\":true,\"clients\":%d,\"setup_frames\":%zu}\n", opt.clients, setup_count);
        fflush(stdout);
        char tmp[256];
        while (read(0, tmp, sizeof tmp) > 0) {}
        pthread_barrier_wait(&barrier);
        for (int i = 0; i < opt.clients; i++) pthread_join(th[i], NULL);
        return 0;
    }
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < opt.clients; i++) pthread_join(th[i], NULL);

    struct rusage ru1;
    getrusage(RUSAGE_SELF, &ru1);
    double cpu = (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) + (ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6
               + (ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) + (ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
    double t_end = 0;
    long responses = 0, events = 0, errors = 0;
    const char *first_error = NULL;
    for (int i = 0; i < opt.clients; i++) {
        if (cs[i].t_end > t_end) t_end = cs[i].t_end;
        responses += cs[i].responses;
        events += cs[i].events;
        errors += cs[i].errors;
        if (cs[i].errors && !first_error) first_error = cs[i].first_error;
    }
    double elapsed = t_end - t0;
    long frames = opt.frames * opt.clients;
    long ops = frames * (tpl_outer.has_batch ? opt.batch : 1);
    printf("{\"mode\":\"%s\",\"clients\":%d,\"frames\":%ld,\"ops\":%ld,\"responses\":%ld,\"events\":%ld,"
           "\"errors\":%ld,\"elapsed_s\":%.6f,\"frames_per_s\":%.1f,\"ops_per_s\":%.1f,\"events_per_s\":%.1f,"
           "\"driver_cpu_s\":%.3f",
           opt.mode == MODE_RTT ? "rtt" : "pipeline", opt.clients, frames, ops, responses, events, errors,
           elapsed, frames / elapsed, ops / elapsed, events / elapsed, cpu);
    if (opt.mode == MODE_RTT) {
        long n = 0;
        for (int i = 0; i < opt.clients; i++) n += cs[i].nlat;
        uint64_t *all = malloc(sizeof(uint64_t) * (n ? n : 1));
        long k = 0;
        double sum = 0;
        for (int i = 0; i < opt.clients; i++)
            for (long j = 0; j < cs[i].nlat; j++) { all[k++] = cs[i].lat[j]; sum += cs[i].lat[j]; }
        qsort(all, n, sizeof *all, cmp_u64);
        printf(",\"samples\":%ld,\"p50_us\":%.2f,\"p90_us\":%.2f,\"p99_us\":%.2f,\"p999_us\":%.2f,"
               "\"max_us\":%.2f,\"mean_us\":%.2f",
               n, pct(all, n, 0.50), pct(all, n, 0.90), pct(all, n, 0.99), pct(all, n, 0.999),
               n ? all[n - 1] / 1000.0 : 0, n ? sum / n / 1000.0 : 0);
    }
    if (first_error) {
        printf(",\"first_error\":\"");
        for (const char *p = first_error; *p; p++) {
            if (*p == '"' || *p == '\\') printf("\\%c", *p);
            else if ((unsigned char)*p < 0x20) printf("\\u%04x", *p);
            else putchar(*p);
        }
        printf("\"");
    }
    printf("}\n");
    return 0;
}
