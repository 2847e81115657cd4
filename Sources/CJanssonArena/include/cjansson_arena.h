#ifndef BRIDGED_CJANSSON_ARENA_H
#define BRIDGED_CJANSSON_ARENA_H

#include <stddef.h>

/* Memory for the jansson trees a thread builds while it parses ahead: taken by bumping a pointer, given back all
 * at once when the arena is destroyed. jansson's allocator functions are routed here (cja_install) and look up
 * the current thread's arena in a C thread-local, so a parse outside an arena costs one TLS load per allocation
 * on top of malloc, and a parse inside one costs no malloc per node.
 *
 * An arena is used by one thread at a time. A tree built in one is never freed node by node: while a thread is
 * in an arena, jansson's frees are ignored (during one json_loadb jansson frees only what it allocated in it). */

typedef struct cja_arena cja_arena;

/* A new, empty arena, or NULL when out of memory. */
cja_arena *cja_arena_create(void);
/* How many allocations the arena has made: another thread may read it while the arena's thread parses, to see
 * that the parse is moving (jansson allocates for every value and key). */
size_t cja_arena_progress(const cja_arena *arena);
/* Frees every tree built in the arena. */
void cja_arena_destroy(cja_arena *arena);

/* Routes jansson's allocations through this file's functions. Idempotent; call it before the first cja_enter. */
void cja_install(void);
/* Makes `arena` the current thread's arena until cja_leave. */
void cja_enter(cja_arena *arena);
void cja_leave(void);

/* The calling thread's scratch arena, for the tree of one request at a time (created on the thread's first use,
 * freed when the thread exits), or NULL while what it holds is still in use: claimed until cja_scratch_release,
 * which gives its memory back (keeping one chunk for the next request). Parse into it with cja_enter. */
cja_arena *cja_scratch_claim(void);
void cja_scratch_release(void);
/* The claimed scratch arena, taken from the thread, when it holds `pointer` (a node of the tree parsed into it):
 * the caller owns it from then on (cja_arena_destroy), with every tree in it, and the thread's next claim makes a
 * new one; NULL (and nothing taken) when the scratch is not claimed or `pointer` is not in it. */
cja_arena *cja_scratch_take_holding(const void *pointer);

/* Gives the memory freed so far back to the system: the chunks kept for the next arenas (CJA_CACHE_CHUNKS), then
 * whatever glibc holds free (malloc_trim: after a large tree is freed node by node, the allocator keeps its pages
 * otherwise). */
void cja_return_free_memory(void);
/* The most 64 KiB chunks kept for the next arenas (4 MiB). */
#define CJA_CACHE_CHUNKS 64
/* The chunks kept for reuse now (at most CJA_CACHE_CHUNKS), and how many arenas have taken from them since the
 * start. */
size_t cja_cached_chunks(void);
size_t cja_reused_chunks(void);

#endif
