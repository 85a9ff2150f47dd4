// radau's chain-rule Jacobian (src/sim/contact-jacobian.ts) with the
// elasto-plastic friction (contact/elasto-plastic.ts) against fourth-order
// central differences of the whole f(x) (contact-jacobian-oracle.ts), at
// states with bristles kept by an accepted step (bristles.ts) and the state
// moved on from there, so the springs are stretched: a rolling sphere
// (sticking: the spring kt / m_t = 3.5e6 1/s^2 in J), the same sphere
// sliding (on its cone: Coulomb's direction), a box on its four corners, and
// Go2 on four feet under its PD controller. The law's derivative is in D_b,
// the contact pass differenced with the bristles held (as for the
// regularised law); the same tolerance, 1e-6 of a row torn.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { Bristles } from '../../src/contact/bristles.ts';
import { ContactRun } from '../../src/contact/run.ts';
import type { Controller } from '../../src/sim/controller.ts';
import sphereOnPlane from '../../mechanisms/sphere-on-plane.ts';
import { go2Kron } from '../../bench/contact-robots/go2.ts';
import { at, boxOnCorners, compare, setUp } from './contact-jacobian-oracle.ts';

/** bristles kept at x0 (an accepted step there), then J at x0 moved by dx (the states named) */
function stretched(compiled: CompiledModel, contact: ContactScene, x0: Float64Array, moved: Record<string, number>, controller?: Controller) {
  const bristles = new Bristles(contact.pairs.length);
  new ContactRun(contact, compiled.createState(), 'kinematics', bristles).accept(0, x0);
  const x = Float64Array.from(x0);
  for (const [n, d] of Object.entries(moved)) x[compiled.stateNames.indexOf(n)] += d;
  const s = setUp(compiled, contact, controller, bristles);
  const r = compare(s, x);
  return { ...r, sticks: [...s.probe.touch.sticks.subarray(0, r.contacts)], bristles };
}

describe('the chain-rule Jacobian with elasto-plastic friction against differences of f', () => {
  const plastic = (m: Mechanism) => ContactScene.of(m, { friction: 'elasto-plastic' });

  it('a sphere rolling (sticking, its spring stretched) and sliding (on the cone)', () => {
    const mech = sphereOnPlane();
    const compiled = compile(mech);
    const scene = plastic(mech);
    const state = compiled.createState();
    const depth = 0.1 - 9.81 / 1e6;
    const rolling = at(compiled, state, { 'j.r[2]': depth, 'j.v[1]': 1.4, 'j.w[3]': -14 + 2e-4 });
    // 1 um on: the spring holds 1 N, inside the cone's 2.94 N
    const stuck = stretched(compiled, scene, rolling, { 'j.r[1]': 1e-6 });
    expect(stuck.sticks).toEqual([1]);
    expect(stuck.worst, `row ${compiled.stateNames[stuck.row]}`).toBeLessThan(1e-6);
    expect(stuck.stiffest).toBeGreaterThan(1e6);
    const sliding = at(compiled, state, { 'j.r[2]': depth - 2e-5, 'j.v[1]': 2, 'j.v[2]': -0.01, 'j.w[3]': -3 });
    const slid = stretched(compiled, scene, sliding, { 'j.r[1]': 1e-3 });
    expect(slid.sticks).toEqual([0]);
    expect(slid.worst, `row ${compiled.stateNames[slid.row]}`).toBeLessThan(1e-6);
  });

  it('a box on its four corners, pushed a little along x and turned about its normal', () => {
    const m = boxOnCorners();
    const compiled = compile(m);
    const c = Math.cos(0.0005),
      q = Math.sin(0.0005);
    const x0 = at(compiled, compiled.createState(), { 'j.r[2]': 0.0995, 'j.Q[1]': q, 'j.Q[4]': c, 'j.v[1]': 0.001, 'j.w[2]': 0.002 });
    const r = stretched(compiled, plastic(m), x0, { 'j.r[1]': 2e-6, 'j.Q[2]': 1e-5 });
    expect(r.contacts).toBe(4);
    expect(r.sticks).toEqual([1, 1, 1, 1]);
    expect(r.worst, `row ${compiled.stateNames[r.row]}`).toBeLessThan(1e-6);
  });

  it('Go2 standing under its PD controller, on four feet', { timeout: 120_000 }, () => {
    const go2 = go2Kron();
    const scene = ContactScene.of(go2.mechanism, { friction: 'elasto-plastic' });
    const run = simulate(go2.compiled, { stop: 0.3, interval: 0.3, contact: scene, controller: go2.controller, start: go2.start });
    const x0 = Float64Array.from(go2.compiled.stateNames.map((n) => run.final(n)));
    const r = stretched(go2.compiled, scene, x0, { 'base_free.r[1]': 1e-5 }, go2.controller);
    expect(r.contacts).toBe(4);
    expect(r.worst, `row ${go2.compiled.stateNames[r.row]}`).toBeLessThan(1e-6);
  });
});
