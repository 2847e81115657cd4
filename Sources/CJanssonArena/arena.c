#include "cjansson_arena.h"

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

cja_arena *cja_arena_create(void) { return calloc(1, sizeof(cja_arena)); }

void cja_arena_destroy(cja_arena *arena) {
    if (!arena) return;
    struct chunk *chunk = arena->last;
    while (chunk) {
        struct chunk *previous = chunk->previous;
        free(chunk);
        chunk = previous;
    }
    free(arena);
}

static void *arena_allocate(cja_arena *arena, size_t size) {
    if (size > SIZE_MAX - 2 * ALIGN - HEADER) return NULL;
    size_t needed = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (needed > arena->remaining) {
        size_t bytes = needed + HEADER > CHUNK_BYTES ? needed + HEADER : CHUNK_BYTES;
        struct chunk *chunk = malloc(bytes);
        if (!chunk) return NULL;
        chunk->previous = arena->last;
        chunk->bytes = bytes;
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
        free(chunk);
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

void cja_scratch_release(void) {
    if (scratch) arena_reset(scratch);
    scratch_busy = 0;
}

size_t cja_arena_progress(const cja_arena *arena) { return __atomic_load_n(&arena->allocations, __ATOMIC_RELAXED); }

void cja_return_free_memory(void) { malloc_trim(0); }
