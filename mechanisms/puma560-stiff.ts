// A stiff mechanism: the PUMA 560 of puma560-pd.ts with stiff PD gains. Each
// joint's PD law is a joint spring-damper to its moving reference, tuned to a
// closed-loop natural frequency wn = 2000 rad/s at critical damping (kp =
// I wn², kd = 2 I wn about the joint inertia I of puma560-pd.ts): the motion
// is the slow reference (1 rad/s), but the fastest modes decay at about
// -1e5 1/s (the wrist, whose inertia is far below the gain's I). Fixed-step
// RK4 needs h < 2.785/1e5 ≈ 2.8e-5 s here and stops at its default step with
// an error naming the mode; the stiff solver takes steps of the motion's size:
//   kron linearize mechanisms/puma560-stiff.ts --at j1.q=0     (the eigenvalues)
//   kron simulate mechanisms/puma560-stiff.ts --stop 2 --integrator radau
import type { Mechanism } from 'kron';
import buildPd, { parameters as pd } from './puma560-pd.ts';

export const parameters = { ...pd, wn: 2000 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  return buildPd({ ...parameters, ...p });
}
