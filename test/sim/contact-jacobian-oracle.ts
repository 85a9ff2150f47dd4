// The oracle of radau's chain-rule Jacobian with contact (src/sim/contact-jacobian.ts),
// shared by contact-jacobian.test.ts and contact-jacobian-plastic.test.ts: f(x) with
// contact on a state of its own, fourth-order central differences of it, and the
// worst row error of the chain rule's whole J against them.
import { type ContactScene, Mechanism } from 'kron';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import type { Bristles } from '../../src/contact/bristles.ts';
import { ContactRun } from '../../src/contact/run.ts';
import { type Controller, controllerHook } from '../../src/sim/controller.ts';
import { type ContactJacobianStats, contactJacobian } from '../../src/sim/contact-jacobian.ts';

export type F = (dx: Float64Array, x: Float64Array) => void;

/** f(x) with contact on a state of its own, and the chain rule's J on another (as simulate gives radau its probe) */
export function setUp(compiled: CompiledModel, contact: ContactScene, controller?: Controller, bristles?: Bristles) {
  const make = () => {
    const state = compiled.createState();
    const control = controller && controllerHook(state, controller, 'controller');
    const held = (dx: Float64Array, x: Float64Array, t: number) => (control?.(t, x), state.derivatives(t, x, dx));
    return { state, held, touch: new ContactRun(contact, state, 'kinematics', bristles) };
  };
  const own = make(),
    probe = make();
  const f: F = (dx, x) => (own.touch.apply(0, x), own.held(dx, x, 0));
  return { f, probe, state: own.state };
}

/** fourth-order central differences of f at x, step 1e-7 (1 + |x_j|) */
export function oracle(f: F, x: Float64Array): Float64Array {
  const n = x.length,
    J = new Float64Array(n * n),
    z = Float64Array.from(x);
  const d = [-2, -1, 1, 2].map(() => new Float64Array(n));
  for (let j = 0; j < n; j++) {
    const h = 1e-7 * (1 + Math.abs(x[j]));
    [-2, -1, 1, 2].forEach((s, k) => ((z[j] = x[j] + s * h), f(d[k], z)));
    z[j] = x[j];
    for (let i = 0; i < n; i++) J[i * n + j] = (d[0][i] - 8 * d[1][i] + 8 * d[2][i] - d[3][i]) / (12 * h);
  }
  return J;
}

/** the chain rule's whole J at x, and its worst row error against the oracle (relative to 1 + the row's largest entry) */
export function compare(setup: ReturnType<typeof setUp>, x: Float64Array): { worst: number; row: number; stiffest: number; contacts: number } {
  const n = x.length,
    fx = new Float64Array(n);
  setup.f(fx, x);
  const stats: ContactJacobianStats = { method: 'chain rule', whole: 0, kept: 0 };
  const J = new Float64Array(n * n);
  contactJacobian(setup.probe, n, stats)(J, x, 0, fx, true);
  const contacts = setup.probe.touch.contacts.count;
  const O = oracle(setup.f, x);
  let worst = 0,
    row = -1,
    stiffest = 0;
  for (let i = 0; i < n; i++) {
    let scale = 0,
      err = 0;
    for (let j = 0; j < n; j++) ((scale = Math.max(scale, Math.abs(O[i * n + j]))), (err = Math.max(err, Math.abs(J[i * n + j] - O[i * n + j]))));
    stiffest = Math.max(stiffest, scale);
    if (err / (1 + scale) > worst) ((worst = err / (1 + scale)), (row = i));
  }
  return { worst, row, stiffest, contacts };
}

export const at = (compiled: CompiledModel, state: ModelState, values: Record<string, number>): Float64Array => {
  const x = state.x0();
  for (const [name, v] of Object.entries(values)) x[compiled.stateNames.indexOf(name)] = v;
  return x;
};

/** a 2 kg box (0.4 x 0.2 x 0.3 m) on a free joint j over the ground, stiff and damped, friction 0.7: four corners touch */
export function boxOnCorners(): Mechanism {
  const m = new Mechanism('box-on-plane');
  const j = m.free('j');
  const box = m.body('box', {
    m: 2,
    I: [0.02, 0.03, 0.04],
    collision: [{ shape: { type: 'box', size: [0.4, 0.2, 0.3] }, material: { stiffness: 1e5, damping: 200, friction: 0.7 } }],
  });
  m.ground();
  (m.connect(m.world.frame_b, j.frame_a), m.connect(j.frame_b, box.frame_a));
  return m;
}
