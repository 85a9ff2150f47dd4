// The fuzz slice of floating mechanisms (the generator's 'floating' family:
// a free root, sometimes two, with quaternion ball joints and every other
// joint type below it, trees and loops closed at planar, spherical, ball,
// universal and revolute cuts), small mechanisms, torn and relaxed against
// test/oracles/floating.ts (trees) and loops.ts on the Cardan equivalent
// (loops): bench/fuzz/floating.ts. Issue 29: free and ball joints join the
// fuzzer. With the free root's f and tau swapped in the oracle, 16 of seeds
// 1..30 disagree: every case that answers.
import { fuzzSlice } from './slice.ts';

// at least 4 of each 10 agree (seeds 1..30: 7, 4 and 5 of the 10; the others are typed errors the oracle confirms)
fuzzSlice(1, 30, 10, 'floating', 4);
