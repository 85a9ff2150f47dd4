// The fuzz slice of singular positions (the generator's 'singular' family,
// bench/fuzz/singular.ts): four-bars at, near and away from a change point
// and free bodies on Cardan joints near gimbal lock, each run with RK4 at a
// random step in both modes and judged against the energy and a run at a
// tenth of the step. Issue 28: such runs used to end on another assembly
// branch, or with 45-79% of their energy changed, with exit 0; every case
// must now stop with a typed error or follow the reference. With the checks
// disabled (signWatch returning 0, no pose watch), 10 of seeds 1..100 fail.
import { fuzzSlice } from './slice.ts';

// at least 6 of each 20 run through (seeds 1..200: 108 agree, 92 stop with a typed error)
fuzzSlice(1, 60, 20, 'singular', 6);
