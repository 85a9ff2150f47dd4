// Second half of the fuzz slice (see slice.ts): seeds 101..160, in 5 tests of 12.
import { fuzzSlice } from './slice.ts';

fuzzSlice(101, 60, 12);
