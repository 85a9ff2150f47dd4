// Is fixed-step RK4 stable for the friction of the contacts that stick?
// Below the slip speed v_s the regularised friction (law.ts) is a damper of
// rate mu fn / v_s on the contact point's slip, so the slip decays at
//   lambda = mu fn / (v_s m_t)        (1/s)
// with m_t the contact's tangential effective mass (ContactRun.tangentialMass).
// RK4 keeps that mode for h lambda < 2.785 (its stability region on the
// real axis, sim/stability.ts). Beyond it the slip does not blow up: it
// chatters about zero at slips far above v_s, where the law looks soft and
// the Jacobian check at the state sees nothing, and the run ends wrong
// (a rolling sphere keeps slipping). So the check is made here, at the
// contacts the run saw stick, with their stick stiffness.
// The elasto-plastic law (contact/elasto-plastic.ts) is a spring kt and a
// damper ct on the slip, smooth in the state, which the Jacobian check sees
// at a sticking contact; at one on its cone the step can still chatter
// across the kink, so every contact that pushes is checked with
// lambda = max(ct / m_t, sqrt(kt / m_t)) (the damper's rate, the spring's
// frequency: RK4 keeps 2.785 on the real axis, 2.83 on the imaginary).
import { StiffModeError } from './stability.ts';
import type { ContactRun } from '../contact/run.ts';
import { tangentBasis } from '../contact/signals.ts';
import { tangentialSpring } from '../contact/elasto-plastic.ts';

/** RK4's stability limit on the negative real axis, |R(-2.785)| = 1 */
const RK4_REAL = 2.785;

// (the run's contact (which pairs stick), the probe's evaluated at (t, x), step h) => nothing, or a StiffModeError naming the contact
export function checkStickStep(run: ContactRun, probe: ContactRun, t: number, x: Float64Array, h: number): void {
  const stuck = new Set<number>();
  const plastic = run.scene.friction === 'elasto-plastic';
  for (let k = 0; k < run.contacts.count; k++) if (run.sticks[k] || (plastic && run.normalForces[k] > 0)) stuck.add(run.contacts.pair[k]);
  if (stuck.size === 0) return;
  const c = probe.contacts,
    { scene } = probe;
  for (let k = 0; k < c.count; k++) {
    const fn = probe.normalForces[k];
    if (!(fn > 0) || !stuck.has(c.pair[k])) continue;
    const mu = scene.materials[c.pair[k]].mu;
    if (mu === 0) continue;
    // along each of two tangents: the stiffer one limits the step
    for (const e of tangentBasis(c.normal.subarray(3 * k, 3 * k + 3))) {
      const mt = probe.tangentialMass(k, t, x, e);
      const [kt, ct] = tangentialSpring(scene.materials[c.pair[k]], -c.dist[k]);
      const lambda = plastic ? Math.max(ct / mt, Math.sqrt(kt / mt)) : (mu * fn) / (scene.slipSpeed * mt);
      if (!(h * lambda > RK4_REAL)) continue;
      const [i, j] = scene.pairs[c.pair[k]];
      const stable = RK4_REAL / lambda;
      throw new StiffModeError(
        `fixed-step RK4 at step ${h} is unstable for the friction of the contact between ${scene.geometries[i].name} and ${scene.geometries[j].name} at time ${t}: it sticks, and ${plastic ? `its elasto-plastic friction's spring and damper act at ${lambda.toPrecision(4)} 1/s (max(ct / m_t, sqrt(kt / m_t)) with kt ${kt.toPrecision(4)} N/m, ct ${ct.toPrecision(4)} N s/m, m_t ${mt.toPrecision(4)} kg)` : `its regularised friction damps the slip at ${lambda.toPrecision(4)} 1/s (mu fn / (v_s m_t) with fn ${fn.toPrecision(4)} N, v_s ${scene.slipSpeed} m/s, m_t ${mt.toPrecision(4)} kg)`}; RK4 keeps it below a step of ${stable.toPrecision(3)}, beyond it the slip chatters and the run is wrong`,
        {
          hint: `use --integrator radau (or auto, which goes on with radau), ${plastic ? 'or' : ''} a smaller step (--step ${Number((0.9 * stable).toPrecision(1))})${plastic ? '' : ', or a larger slip speed (ContactScene.of(m, { slipSpeed }))'}`,
        },
      );
    }
  }
}
