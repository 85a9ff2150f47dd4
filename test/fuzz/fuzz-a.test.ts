// First half of the fuzz slice (see slice.ts): seeds 1..60, in 5 tests of 12. npm test runs 120
// small mixed cases (this file and fuzz-b), ~0.13 s of CPU each; the fuzzer
// itself runs thousands (npm run fuzz -- --cases 2000 --small).
import { fuzzSlice } from './slice.ts';

fuzzSlice(1, 60, 12);
