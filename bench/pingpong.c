/* How far apart the machine's two cores are: two threads bounce a counter on one cache line, 2,000,000 round
 * trips, and the mean round trip is printed. On the bench's 2-vCPU VM it reads 50-80 ns most of the time and
 * 200-350 ns at others; in those periods the daemon, whose parse helper hands trees from one core to the other,
 * takes about 1.5x the CPU for the same frames (bench/README.md, "The slow mode, diagnosed").
 *
 *   make -C bench out/pingpong && bench/out/pingpong
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { ROUND_TRIPS = 2000000 };
static _Atomic long turn = 0;

static void *answer(void *unused) {
    (void)unused;
    for (long i = 0; i < ROUND_TRIPS; i++) {
        while (atomic_load(&turn) != 2 * i + 1) {}
        atomic_store(&turn, 2 * i + 2);
    }
    return NULL;
}

int main(void) {
    pthread_t other;
    if (pthread_create(&other, NULL, answer, NULL) != 0) return 1;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < ROUND_TRIPS; i++) {
        atomic_store(&turn, 2 * i + 1);
        while (atomic_load(&turn) != 2 * i + 2) {}
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    pthread_join(other, NULL);
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.0f ns a round trip\n", ns / ROUND_TRIPS);
    return 0;
}
