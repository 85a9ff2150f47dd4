// First half of the fuzz slice (see slice.ts).
import { fuzzSlice } from './slice.ts';

fuzzSlice(1, 100);
