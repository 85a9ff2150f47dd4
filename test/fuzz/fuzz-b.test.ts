// Second half of the fuzz slice (see slice.ts).
import { fuzzSlice } from './slice.ts';

fuzzSlice(101, 100);
