// Yield points (cyield_point.h).
#include "cyield_point.h"

#include <sched.h>

_Thread_local uint32_t cyield_point_left = 0;
static _Thread_local uint32_t every_units = 0;
static _Thread_local uint64_t yields = 0;

void cyield_point_yield(void) {
    sched_yield();
    yields += 1;
    cyield_point_left = every_units;
}

void cyield_point_begin(uint32_t every) {
    every_units = every > 0 ? every : 1;
    cyield_point_left = every_units;
}

void cyield_point_end(void) {
    every_units = 0;
    cyield_point_left = 0;
}

uint64_t cyield_point_yields(void) { return yields; }
