// The fuzz slice of loops closed at a prismatic joint (the generator's
// 'prismatic' family: spatial and planar prismatic cuts, some with a second
// loop of any type), small mechanisms, against the KKT oracle (see slice.ts).
// Issue 28: a held-out generator's random spatial loops whose closing joint
// was prismatic were refused ("cannot be cut"); these must compile and agree.
import { fuzzSlice } from './slice.ts';

// at least 14 of each 20 agree (the family's small cases: 91 of seeds 1..100)
fuzzSlice(1, 60, 20, 'prismatic', 14);
