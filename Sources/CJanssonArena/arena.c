#include "cjansson_arena.h"
#include "cyield_point.h"

#include <jansson.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { CHUNK_BYTES = 64 << 10, ALIGN = 16 };

/* A chunk starts with a header holding the previous chunk, padded to ALIGN. */
struct chunk {
    struct chunk *previous;
    size_t bytes;
};
#define HEADER ((sizeof(struct chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

struct cja_arena {
    struct chunk *last;
    char *cursor;
    size_t remaining;
    /* Allocations made, written by the arena's thread and read by others (cja_arena_progress): atomic. */
    size_t allocations;
};

static __thread cja_arena *current;

/* Chunks given back, for the next arena to take: a read parsed ahead builds megabytes of trees, all dropped when it
 * is done. Freed to glibc, those pages went back to the kernel (its heaps trim what they hold free) and the next
 * read faulted every one in again, zeroed: a quarter of the parse helper's time in the bench's batches. Bounded:
 * CJA_CACHE_CHUNKS chunks of CHUNK_BYTES at most are kept; larger chunks, and any beyond that, are freed. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct chunk *cache[CJA_CACHE_CHUNKS];
static int cached;
/* Chunks taken from the cache since the start (for tests). */
static size_t reused;

static struct chunk *chunk_take(size_t bytes) {
    if (bytes == CHUNK_BYTES) {
        struct chunk *chunk = NULL;
        pthread_mutex_lock(&cache_lock);
        if (cached > 0) {
            chunk = cache[--cached];
            reused++;
        }
        pthread_mutex_unlock(&cache_lock);
        if (chunk) return chunk;
    }
    struct chunk *chunk = malloc(bytes);
    if (chunk) chunk->bytes = bytes;
    return chunk;
}

static void chunk_give(struct chunk *chunk) {
    if (chunk->bytes == CHUNK_BYTES) {
        pthread_mutex_lock(&cache_lock);
        int kept = cached < CJA_CACHE_CHUNKS;
        if (kept) cache[cached++] = chunk;
        pthread_mutex_unlock(&cache_lock);
        if (kept) return;
    }
    free(chunk);
}

cja_arena *cja_arena_create(void) { return calloc(1, sizeof(cja_arena)); }

void cja_arena_destroy(cja_arena *arena) {
    if (!arena) return;
    struct chunk *chunk = arena->last;
    while (chunk) {
        struct chunk *previous = chunk->previous;
        chunk_give(chunk);
        chunk = previous;
    }
    free(arena);
}

static void *arena_allocate(cja_arena *arena, size_t size) {
    if (size > SIZE_MAX - 2 * ALIGN - HEADER) return NULL;
    size_t needed = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (needed > arena->remaining) {
        size_t bytes = needed + HEADER > CHUNK_BYTES ? needed + HEADER : CHUNK_BYTES;
        struct chunk *chunk = chunk_take(bytes);
        if (!chunk) return NULL;
        chunk->previous = arena->last;
        arena->last = chunk;
        arena->cursor = (char *)chunk + HEADER;
        arena->remaining = bytes - HEADER;
    }
    void *pointer = arena->cursor;
    arena->cursor += needed;
    arena->remaining -= needed;
    /* One writer: a relaxed load and store (plain moves on x86), not a locked add. */
    __atomic_store_n(&arena->allocations, __atomic_load_n(&arena->allocations, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    return pointer;
}

static void *cja_malloc(size_t size) {
    /* A parse is long work too: a value or key per allocation (cyield_point.h). */
    cyield_point(1);
    cja_arena *arena = current;
    return arena ? arena_allocate(arena, size) : malloc(size);
}

static void cja_free(void *pointer) {
    if (!current) free(pointer);
}

/* Frees every chunk but the first, and makes the arena empty. */
static void arena_reset(cja_arena *arena) {
    struct chunk *chunk = arena->last;
    if (!chunk) return;
    while (chunk->previous) {
        struct chunk *previous = chunk->previous;
        chunk_give(chunk);
        chunk = previous;
    }
    arena->last = chunk;
    arena->cursor = (char *)chunk + HEADER;
    arena->remaining = chunk->bytes - HEADER;
}

static __thread cja_arena *scratch;
static __thread int scratch_busy;
static pthread_key_t scratch_key;

static void scratch_destroy(void *arena) { cja_arena_destroy(arena); }

static pthread_once_t installed = PTHREAD_ONCE_INIT;
static void install(void) {
    pthread_key_create(&scratch_key, scratch_destroy);
    json_set_alloc_funcs(cja_malloc, cja_free);
}
void cja_install(void) { pthread_once(&installed, install); }

void cja_enter(cja_arena *arena) { current = arena; }
void cja_leave(void) { current = NULL; }

cja_arena *cja_scratch_claim(void) {
    if (scratch_busy) return NULL;
    if (!scratch) {
        cja_install();
        scratch = cja_arena_create();
        if (!scratch) return NULL;
        pthread_setspecific(scratch_key, scratch);
    }
    scratch_busy = 1;
    return scratch;
}

/* Whether `pointer` lies in one of the arena's chunks. */
static int arena_holds(const cja_arena *arena, const void *pointer) {
    for (const struct chunk *chunk = arena->last; chunk; chunk = chunk->previous) {
        const char *start = (const char *)chunk;
        if ((const char *)pointer >= start + HEADER && (const char *)pointer < start + chunk->bytes) return 1;
    }
    return 0;
}

cja_arena *cja_scratch_take_holding(const void *pointer) {
    if (!scratch || !scratch_busy || !arena_holds(scratch, pointer)) return NULL;
    cja_arena *taken = scratch;
    scratch = NULL;
    pthread_setspecific(scratch_key, NULL);
    return taken;
}

void cja_scratch_release(void) {
    if (scratch) arena_reset(scratch);
    scratch_busy = 0;
}

size_t cja_arena_progress(const cja_arena *arena) { return __atomic_load_n(&arena->allocations, __ATOMIC_RELAXED); }

size_t cja_cached_chunks(void) {
    pthread_mutex_lock(&cache_lock);
    size_t count = (size_t)cached;
    pthread_mutex_unlock(&cache_lock);
    return count;
}

size_t cja_reused_chunks(void) {
    pthread_mutex_lock(&cache_lock);
    size_t count = reused;
    pthread_mutex_unlock(&cache_lock);
    return count;
}

void cja_return_free_memory(void) {
    pthread_mutex_lock(&cache_lock);
    while (cached > 0) free(cache[--cached]);
    pthread_mutex_unlock(&cache_lock);
    malloc_trim(0);
}
