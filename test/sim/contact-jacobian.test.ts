// radau's Jacobian with contact by the chain rule (src/sim/contact-jacobian.ts)
// against its oracle: fourth-order central differences of the whole state
// derivative f(x) = F(x, w(x)) — the contact pass and the model's derivatives
// together, the function radau differences without it — at states with
// contacts: a sphere sliding and one rolling on a plane, a box on a plane on
// its four corners, the scene of a box, a capsule arm and a ball (torn and
// relaxed), Go2 standing under its PD controller and the humanoid lying after
// its fall, at rest on 9 contacts (torn and relaxed).
//
// Tolerance. Row by row, |J - J_oracle| <= 1e-6 (1 + max |J_oracle| of the
// row), torn: the chain rule's F_x is forward differences (step
// √eps (1 + |x|), truncation ½ δ F''; the worst measured 1.1e-7, the rolling
// sphere; the humanoid lying on 9 contacts 1.7e-8), its D central ones of the
// contact pass at 1e-8 (1 + |x|) (truncation (δ / v_s)² ≈ 1e-8 for the
// friction's regularisation v_s = 1e-4 m/s, rounding ~1e-8 of the row); the
// oracle's step 1e-7 (1 + |x|) leaves (h / v_s)^4 ≈ 1e-11. Relaxed forms 1e-5:
// their evaluations carry ~5e-11 of noise (their iterations' tolerance),
// which F_x's forward step √eps turns into ~3e-3 of a row of 3e3 (measured
// 1.3e-6 on the box-capsule-ball scene). A J that dropped a
// term — the contact point's motion over the surface, the lever arm's change,
// the normal force's share in the friction — misses by 1e-3 or more of its row.
import { describe, expect, it } from 'vitest';
import { ContactScene, compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { at, boxOnCorners, compare, setUp } from './contact-jacobian-oracle.ts';

/** per solve form: the worst row error allowed (header) */
const TOLERANCE = { torn: 1e-6, relaxed: 1e-5 };
import sphereOnPlane from '../../mechanisms/sphere-on-plane.ts';
import { scene as formsScene } from '../contact/forms-scene.ts';
import { go2Kron } from '../../bench/contact-robots/go2.ts';
import { humanoidKron } from '../../bench/contact-robots/humanoid.ts';

describe('the chain-rule Jacobian with contact against differences of f', () => {
  it('a sphere sliding and a sphere rolling on a plane (friction sliding; sticking at the regularised law)', () => {
    const mech = sphereOnPlane();
    const compiled = compile(mech);
    const s = setUp(compiled, ContactScene.of(mech));
    const depth = 0.1 - 9.81 / 1e6;
    const sliding = compare(s, at(compiled, s.state, { 'j.r[2]': depth - 2e-5, 'j.v[1]': 2, 'j.v[2]': -0.01, 'j.w[3]': -3 }));
    const rolling = compare(s, at(compiled, s.state, { 'j.r[2]': depth, 'j.v[1]': 1.4, 'j.w[3]': -14 + 2e-4 }));
    for (const r of [sliding, rolling]) expect(r.worst, `row ${compiled.stateNames[r.row]}`).toBeLessThan(1e-6);
    // rolling, the contact sticks: the friction's stiffness mu fn / v_s = 0.3 * 9.81 / 1e-4 is in J
    expect(rolling.stiffest).toBeGreaterThan(1e4);
  });

  it('a box on a plane on its four corners, moving', () => {
    const m = boxOnCorners();
    const compiled = compile(m);
    const s = setUp(compiled, ContactScene.of(m));
    const c = Math.cos(0.0005),
      q = Math.sin(0.0005);
    // a little tilted about x, so the four corners sink by different depths; sliding along x, turning about y
    const x = at(compiled, s.state, { 'j.r[2]': 0.0995, 'j.Q[1]': q, 'j.Q[4]': c, 'j.v[1]': 0.3, 'j.v[2]': -0.02, 'j.w[2]': 0.5 });
    const touch = new ContactRun(ContactScene.of(m), compiled.createState());
    touch.apply(0, x);
    expect(touch.contacts.count).toBe(4);
    const r = compare(s, x);
    expect(r.worst, `row ${compiled.stateNames[r.row]}`).toBeLessThan(1e-6);
  });

  it('a box with a capsule arm and a ball: box, capsule and sphere on the plane, torn and relaxed', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const mech = formsScene();
      const compiled = compile(mech, { mode });
      const s = setUp(compiled, ContactScene.of(mech));
      const x = at(compiled, s.state, {
        'base.r[2]': 0.095,
        'base.v[1]': 0.2,
        'base.w[2]': 0.4,
        'hinge.q': -0.2,
        'hinge.qd': 0.3,
        'fly.r[2]': 0.098,
        'fly.v[1]': -0.5,
        'fly.w[3]': 2,
      });
      const r = compare(s, x);
      expect(r.worst, `${mode}: row ${compiled.stateNames[r.row]}`).toBeLessThan(TOLERANCE[mode]);
    }
  });

  it('Go2 standing under its PD controller, torn and relaxed', { timeout: 120_000 }, () => {
    // standing after 0.3 s: the state of the torn run, by name, for both forms (as the humanoid's below;
    // the Jacobian's check is at a state where it stands on four feet, not of how the form got there)
    let standing: Record<string, number> | undefined;
    for (const mode of ['torn', 'relaxed'] as const) {
      const go2 = go2Kron({ mode });
      if (!standing) {
        const run = simulate(go2.compiled, { stop: 0.3, interval: 0.3, contact: go2.contact, controller: go2.controller, start: go2.start });
        standing = Object.fromEntries(go2.compiled.stateNames.map((n) => [n, run.final(n)]));
      }
      const x = Float64Array.from(go2.compiled.stateNames.map((n) => standing![n]));
      const s = setUp(go2.compiled, go2.contact, go2.controller);
      const r = compare(s, x);
      expect(r.worst, `${mode}: row ${go2.compiled.stateNames[r.row]}`).toBeLessThan(TOLERANCE[mode]);
      expect(r.contacts).toBe(4); // on its four feet
    }
  });

  it('the humanoid lying after its fall, torn and relaxed', { timeout: 300_000 }, () => {
    // the state of the torn run, by name (the forms may order their states differently)
    let lying: Record<string, number> | undefined;
    for (const mode of ['torn', 'relaxed'] as const) {
      const h = humanoidKron({ mode });
      if (!lying) {
        const run = simulate(h.compiled, { stop: 2.5, interval: 2.5, contact: h.contact });
        lying = Object.fromEntries(h.compiled.stateNames.map((n) => [n, run.final(n)]));
      }
      const x = Float64Array.from(h.compiled.stateNames.map((n) => lying![n]));
      const s = setUp(h.compiled, h.contact);
      const r = compare(s, x);
      expect(r.worst, `${mode}: row ${h.compiled.stateNames[r.row]}`).toBeLessThan(TOLERANCE[mode]);
      expect(r.contacts).toBeGreaterThanOrEqual(3);
    }
  });
});
