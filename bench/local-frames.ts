// bench/local-frames: an experiment for issue 18's "≤ 400 operations per
// body". The library resolves every Frame quantity in world coordinates
// (src/library/multibody/frame.ts), where the bar's offset and the joint's
// axis are dense; the articulated inertia in each body's own frame, where
// both are 1-sparse, is the textbook way to fewer operations. This rewrites
// the chain's three components (revolute joint, body, bar) with w, v, z, a,
// f, t resolved in the frame's own coordinates (R and r stay world: the
// Frame's variables and connections are unchanged, only the equations
// differ), compiles the relaxed chain with the same compiler, and prints the
// operations per body next to the library's, with the largest difference of
// the accelerations at a pseudo-random state (an independent formulation of
// the same mechanism: they must agree to rounding).
// Run: npx tsx bench/local-frames.ts
import { type Vec3, add, axisRotation, cross, dot, mat3, mulMM, mulMTV, mulMV, residue, vadd, vec3, vneg, vscale, vsub } from '../src/expr/index.ts';
import { Component, Model } from '../src/model/index.ts';
import { Frame } from '../src/library/multibody/frame.ts';
import { Revolute, relax3 } from '../src/library/multibody/revolute.ts';
import { matrixEquation } from '../src/library/multibody/kinematics.ts';
import { World } from '../src/library/multibody/world.ts';
import { compile } from '../src/compile.ts';
import { rng } from '../src/bench/timing.ts';
import build, { parameters } from '../mechanisms/chain.ts';

/** Rrel maps frame_b coordinates to frame_a's; the axis n is the same in both */
class LocalRevolute extends Revolute {
  protected override kinematics(): void {
    const n = this.axis,
      fa = this.frame_a,
      fb = this.frame_b;
    const Rrel = axisRotation(n, this.q);
    matrixEquation(this, fb.R, mulMM(fa.R, Rrel));
    this.vectorEquation(fb.r, fa.r);
    this.vectorEquation(fb.w, mulMTV(Rrel, vadd(fa.w, vscale(this.qd, n))));
    this.vectorEquation(fb.v, mulMTV(Rrel, fa.v));
    this.vectorEquation(fb.z, mulMTV(Rrel, vadd(vadd(relax3(fa.z), vscale(this.qdd, n)), cross(fa.w, vscale(this.qd, n)))));
    this.vectorEquation(fb.a, mulMTV(Rrel, relax3(fa.a)));
    this.vectorEquation(fa.f, vneg(mulMV(Rrel, fb.f)));
    this.vectorEquation(fa.t, vneg(mulMV(Rrel, fb.t)));
    this.equation(dot(n, vneg(fb.t)), add(this.drive, residue(this.qdd)));
  }
}

/** Newton-Euler at frame_a in its own coordinates: constant inertia and centre of mass, gravity R^T g */
class LocalBody extends Component {
  readonly frame_a = this.add(new Frame('frame_a'));
  constructor(name: string, o: { m: number; rcm: readonly number[]; I: readonly number[]; g: Vec3 }) {
    super(name);
    const m = this.parameter('m', o.m),
      fa = this.frame_a;
    const c = vec3(...(o.rcm.map((x, i) => this.parameter(`r_cm[${i + 1}]`, x)) as [never, never, never]));
    const I = mat3([
      [this.parameter('I[1][1]', o.I[0]), 0, 0],
      [0, this.parameter('I[2][2]', o.I[1]), 0],
      [0, 0, this.parameter('I[3][3]', o.I[2])],
    ]);
    const acm = vadd(vadd(fa.a, cross(fa.z, c)), cross(fa.w, cross(fa.w, c)));
    this.vectorEquation(fa.f, vscale(m, vsub(acm, mulMTV(fa.R, o.g))));
    this.vectorEquation(fa.t, vadd(vadd(mulMV(I, fa.z), cross(fa.w, mulMV(I, fa.w))), cross(c, fa.f)));
  }
}

/** frame_b at the constant offset r (frame_a coordinates), same orientation */
class LocalBar extends Component {
  readonly frame_a = this.add(new Frame('frame_a'));
  readonly frame_b = this.add(new Frame('frame_b'));
  constructor(name: string, offset: readonly number[]) {
    super(name);
    const r = vec3(...(offset.map((x, i) => this.parameter(`r[${i + 1}]`, x)) as [never, never, never]));
    const fa = this.frame_a,
      fb = this.frame_b;
    matrixEquation(this, fb.R, fa.R);
    this.vectorEquation(fb.r, vadd(fa.r, mulMV(fa.R, r)));
    this.vectorEquation(fb.w, fa.w);
    this.vectorEquation(fb.v, vadd(fa.v, cross(fa.w, r)));
    this.vectorEquation(fb.z, fa.z);
    this.vectorEquation(fb.a, vadd(vadd(fa.a, cross(fa.z, r)), cross(fa.w, cross(fa.w, r))));
    this.vectorEquation(fa.f, vneg(fb.f));
    this.vectorEquation(fa.t, vneg(vadd(fb.t, cross(r, fb.f))));
  }
}

/** mechanisms/chain.ts with the components above */
function localChain(n: number): Model {
  const { L, m, q0 } = parameters;
  const model = new Model('chain-local');
  const world = model.add(new World('world'));
  let parent = world.frame_b;
  for (let k = 1; k <= n; k++) {
    const j = model.add(new LocalRevolute(`j${k}`, { axis: k % 2 ? [0, 0, 1] : [0, 1, 0], q: q0 * ((k % 3) - 1) }));
    const body = model.add(new LocalBody(`b${k}`, { m, rcm: [L / 2, 0, 0], I: [m * 1e-4, (m * L * L) / 12, (m * L * L) / 12], g: world.g }));
    const bar = model.add(new LocalBar(`bar${k}`, [L, 0, 0]));
    model.connect(parent, j.frame_a);
    model.connect(j.frame_b, body.frame_a);
    model.connect(j.frame_b, bar.frame_a);
    parent = bar.frame_b;
  }
  return model;
}

const total = (o: { mul: number; add: number; div: number; fn: number }) => o.mul + o.add + o.div + o.fn;
console.log('| n | library (world-resolved) ops | body-local ops | largest |qdd| difference / largest |qdd| |');
console.log('|---:|---:|---:|---:|');
const rows: { n: number; world: number; local: number }[] = [];
for (const n of [16, 32, 64]) {
  const world = compile(build({ n }), { mode: 'relaxed' });
  const local = compile(localChain(n), { mode: 'relaxed' });
  // the same state in both (states by name), derivatives compared
  const rand = rng(n);
  const x = new Float64Array(world.stateNames.length).map(() => -2 + 4 * rand());
  const xl = new Float64Array(local.stateNames.length);
  local.stateNames.forEach((name, i) => (xl[i] = x[world.stateNames.indexOf(name)]));
  const dx = new Float64Array(x.length),
    dxl = new Float64Array(xl.length);
  world.derivatives(0, x, dx);
  local.derivatives(0, xl, dxl);
  let diff = 0,
    largest = 0;
  local.stateNames.forEach((name, i) => {
    diff = Math.max(diff, Math.abs(dxl[i] - dx[world.stateNames.indexOf(name)]));
    largest = Math.max(largest, Math.abs(dxl[i]));
  });
  rows.push({ n, world: total(world.report.ops), local: total(local.report.ops) });
  console.log(`| ${n} | ${total(world.report.ops)} | ${total(local.report.ops)} | ${(diff / largest).toExponential(1)} |`);
}
const slope = (k: 'world' | 'local') => (rows[2][k] - rows[1][k]) / (rows[2].n - rows[1].n);
console.log(`\nper body (n = 32 → 64): library ${slope('world')}, body-local ${slope('local')}`);
