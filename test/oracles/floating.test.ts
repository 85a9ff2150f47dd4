// The floating-base oracle (floating.ts), checked before it judges Kron's free
// and ball joints: each against something written independently of it
// (floating-closed-forms.test.ts checks the quaternions and the torque-free
// closed form).
//   - ABA against CRBA + RNEA (two algorithms of the book), inverse after forward
//   - against joint-tree.ts (Walker-Orin mass matrix, Jacobi eigen-solve, joints
//     as one-axis chains): a ball joint is a Cardan spherical, a free joint three
//     sliders and a Cardan spherical, at the same motion
//   - against the fixed-base ABA of aba.ts under a root of 1e9 kg held against gravity
//   - physics: momentum conserved without external forces and changing at the
//     rate of the external ones, energy conserved, 1/2 v^T H v = kinetic energy
import { describe, expect, it } from 'vitest';
import { type RneaTree, type V3, add, cross, identity, mulMM, mulMV, mulMtV, rotation, scale } from './rnea.ts';
import { type JointType, type OracleTree, SPHERICAL_AXES, expand, forwardDynamics as jointTreeDynamics } from './joint-tree.ts';
import { attach, cardanEquivalent, cardanJacobian, fromCardanAccelerations, toCardan } from './floating-cardan.ts';
import { type LoopSystem, constraintSystem, loopDynamics } from './loops.ts';
import { solveDense } from './gauss.ts';
import { type MujocoIndex, floatingMjcf, fromMujocoAccelerations, toMujoco } from './floating-mjcf.ts';
import { aba as fixedAba, chainTree } from './aba.ts';
import { directional } from './ridders.ts';
import {
  type ExternalForce,
  type FloatingLink,
  type FloatingModel,
  type FloatingTree,
  centreOfMass,
  floatingModel,
  forwardDynamics,
  inverseDynamics,
  kinematics,
  kineticEnergy,
  massMatrix,
  momentum,
  positionRate,
  potentialEnergy,
  rk4Step,
} from './floating.ts';
import { type Quat, quatFromAxisAngle, quatMatrix } from './quaternion.ts';
import { prng, randomBody, randomFloatingTree, randomState, relDiff } from './floating-random.ts';

const ZERO: V3 = [0, 0, 0];
const zeros = (n: number) => new Array<number>(n).fill(0);
const maxAbsDiff = (a: readonly number[], b: readonly number[]) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe('floating.ts: ABA and CRBA, forward and inverse', () => {
  it("the example of floating.ts's header runs as written: nq 12, nv 10, inverse after forward returns tau", () => {
    const model = floatingModel({
      gravity: [0, 0, -9.81],
      links: [
        { parent: -1, E: identity(), o: [0, 0, 0], joint: 'free', body: { m: 10, c: [0, 0, 0], I: [1, 2, 3, 0, 0, 0] } },
        { parent: 0, E: identity(), o: [0.3, 0, 0], joint: 'ball', body: { m: 1, c: [0, 0, -0.2], I: [0.01, 0.01, 0.002, 0, 0, 0] } },
        { parent: 1, E: identity(), o: [0, 0, -0.4], joint: 'revolute', axes: [[0, 1, 0]], body: { m: 1, c: [0, 0, -0.2], I: [0.01, 0.01, 0.002, 0, 0, 0] } },
      ],
    });
    expect([model.nq, model.nv]).toEqual([12, 10]);
    const q = [0.1, 0.2, 0.3, ...quatFromAxisAngle([1, 1, 0], 0.4), ...quatFromAxisAngle([0, 1, 1], -0.7), 0.5];
    const v = [0.3, -0.1, 0.2, 0.5, -0.4, 0.3, 1, -0.5, 0.2, 0.8],
      tau = [1, 0, -2, 0.1, 0.2, -0.1, 0.3, -0.2, 0.1, 0.4];
    const dv = forwardDynamics(model, q, v, tau);
    expect(relDiff(dv, forwardDynamics(model, q, v, tau, undefined, 'crba'))).toBeLessThan(1e-13);
    expect(relDiff(inverseDynamics(model, q, v, dv), tau)).toBeLessThan(1e-13);
  });

  it('agree to 1e-12 on 40 seeded random floating trees (every joint type, 1-10 links, external forces)', () => {
    let worst = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rand = prng(seed);
      const model = floatingModel(randomFloatingTree(rand, 1 + (seed % 10)));
      const { q, v, tau } = randomState(rand, model);
      const fExt = model.tree.links.map((): ExternalForce | undefined =>
        rand() < 0.3 ? { force: [rand(), -rand(), rand()], torque: [rand(), rand(), -rand()] } : undefined,
      );
      const a = forwardDynamics(model, q, v, tau, fExt, 'aba');
      const c = forwardDynamics(model, q, v, tau, fExt, 'crba');
      worst = Math.max(worst, relDiff(a, c));
      // a regular tree: no near-singular mass matrix that would make any two answers agree in relative terms
      expect(Math.max(...a.map(Math.abs))).toBeLessThan(1e4);
      expect(relDiff(inverseDynamics(model, q, v, a, fExt), tau)).toBeLessThan(1e-12);
    }
    expect(worst).toBeLessThan(1e-12);
  });

  it('H is symmetric positive definite and 1/2 v^T H v is the kinetic energy summed body by body', () => {
    for (let seed = 41; seed <= 50; seed++) {
      const rand = prng(seed);
      const model = floatingModel(randomFloatingTree(rand, 8));
      const { q, v } = randomState(rand, model);
      const H = massMatrix(model, q);
      const Hv = H.map((row) => row.reduce((s, x, j) => s + x * v[j], 0));
      expect((0.5 * Hv.reduce((s, x, i) => s + x * v[i], 0)) / kineticEnergy(model, q, v) - 1).toBeLessThan(1e-13);
      H.forEach((row, i) => row.forEach((x, j) => expect(x).toBe(H[j][i])));
    }
  });

  it('the force laws: inverse dynamics returns the input with springs and dampers on every joint', () => {
    const rand = prng(51);
    const tree = randomFloatingTree(rand, 7);
    tree.links.forEach((l) => (l.law = { c: rand(), q0: rand() - 0.5, d: rand() }));
    const model = floatingModel(tree);
    const { q, v, tau } = randomState(rand, model);
    const a = forwardDynamics(model, q, v, tau);
    expect(relDiff(forwardDynamics(model, q, v, tau, undefined, 'crba'), a)).toBeLessThan(1e-12);
    expect(relDiff(inverseDynamics(model, q, v, a), tau)).toBeLessThan(1e-12);
  });

  it('fails with a message naming the joint: a zero quaternion, a parent after its child, a wrong number of axes', () => {
    const model = floatingModel(randomFloatingTree(prng(52), 2, { joints: ['ball'] }));
    const q = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    expect(() => forwardDynamics(model, q, zeros(9), zeros(9))).toThrow(/body 1: ball joint Q: \|Q\| = 0/);
    const link = (parent: number, joint: FloatingLink['joint'], axes?: V3[]): FloatingLink => ({
      parent,
      E: identity(),
      o: ZERO,
      joint,
      axes,
      body: randomBody(prng(1)),
    });
    expect(() => floatingModel({ gravity: ZERO, links: [link(1, 'free'), link(-1, 'ball')] })).toThrow(/link 0: parent 1 must come before it/);
    expect(() => floatingModel({ gravity: ZERO, links: [link(-1, 'revolute')] })).toThrow(/link 0 \(revolute\): 0 axes given, 1 expected/);
  });
});

/** links 1.. of a floating tree with a free root, as a joint-tree.ts OracleTree fixed to the world, each with a spring-damper */
function expandableTree(t: FloatingTree, rand: () => number): OracleTree {
  return {
    gravity: t.gravity,
    links: t.links.slice(1).map((l) => ({
      parent: l.parent - 1,
      E: l.E,
      o: l.o,
      joint: l.joint as JointType,
      axes: l.joint === 'spherical' ? SPHERICAL_AXES : [...l.axes!],
      body: l.body,
      law: { c: rand(), q0: rand() - 0.5, d: rand() },
    })),
  };
}

// ---- against joint-tree.ts and loops.ts through floating-cardan.ts ---------------------------------------

describe('floating.ts against joint-tree.ts (ball = Cardan spherical, free = three sliders and a Cardan spherical, fixed = merged)', () => {
  it('the same accelerations on 40 seeded random trees with every joint type, to 1e-9', () => {
    let worst = 0,
      fixed = 0;
    for (let seed = 101; seed <= 140; seed++) {
      const rand = prng(seed);
      const tree = randomFloatingTree(rand, 1 + (seed % 10));
      const model = floatingModel(tree);
      const { q, v, tau } = randomState(rand, model);
      const ce = cardanEquivalent(tree);
      const c = toCardan(tree, q, v, tau);
      const ref = jointTreeDynamics(expand(ce.tree), c.q, c.v, c.tau);
      if (ref.singular) throw new Error(`seed ${seed}: the joint tree oracle calls it singular (${ref.why})`);
      worst = Math.max(worst, relDiff(forwardDynamics(model, q, v, tau), fromCardanAccelerations(tree, c.q, c.v, ref.x)));
      fixed += tree.links.filter((l) => l.joint === 'fixed').length;
    }
    expect(worst).toBeLessThan(1e-9);
    expect(fixed).toBeGreaterThan(5);
  });

  it("an OracleTree is a FloatingTree: a fixed-base tree with spring-dampers on every joint type gives joint-tree.ts's accelerations", () => {
    const rand = prng(142);
    const free = randomFloatingTree(rand, 7, { joints: ['revolute', 'prismatic', 'universal', 'spherical'] });
    // the root's children hang from the world instead; every link gets a spring-damper
    const oracle = expandableTree(free, rand);
    const model = floatingModel(oracle);
    const { q, v, tau } = randomState(rand, model);
    const ref = jointTreeDynamics(expand(oracle), q, v, tau);
    if (ref.singular) throw new Error(ref.why);
    expect(relDiff(forwardDynamics(model, q, v, tau), ref.x)).toBeLessThan(1e-10);
  });

  it('the Cardan conversion: angles, rates and J^T tau carry the same rotation, angular velocity and power', () => {
    const rand = prng(141);
    const tree = randomFloatingTree(rand, 3, { joints: ['ball'] });
    const model = floatingModel(tree);
    const { q, v, tau } = randomState(rand, model);
    const c = toCardan(tree, q, v, tau);
    const R = mulMM(mulMM(rotation([1, 0, 0], c.q[3]), rotation([0, 1, 0], c.q[4])), rotation([0, 0, 1], c.q[5]));
    expect(maxAbsDiff(R.flat(), quatMatrix(q.slice(3, 7) as Quat).flat())).toBeLessThan(1e-15);
    expect(maxAbsDiff(mulMV(cardanJacobian(c.q.slice(3, 6) as V3), c.v.slice(3, 6) as V3), v.slice(3, 6))).toBeLessThan(1e-14);
    expect(c.tau.reduce((s, x, i) => s + x * c.v[i], 0)).toBeCloseTo(
      tau.reduce((s, x, i) => s + x * v[i], 0),
      13,
    );
  });
});

describe('a loop on a floating base (a cut between two legs) through floating-cardan.ts and loops.ts', () => {
  // a free trunk with two legs of two revolutes each; their feet joined by a spherical cut, closed by construction
  const rand = prng(151);
  const leg = (parent: number, o: V3, axis: V3): FloatingLink => ({ parent, E: identity(), o, joint: 'revolute', axes: [axis], body: randomBody(rand) });
  const tree: FloatingTree = {
    gravity: ZERO,
    links: [
      { parent: -1, E: identity(), o: ZERO, joint: 'free', body: { m: 5, c: [0, 0, 0.05], I: [0.2, 0.3, 0.25, 0.01, 0, 0.02] } },
      leg(0, [0.2, 0.1, 0], [0, 1, 0]),
      leg(1, [0, 0, -0.4], [1, 0, 0.3]),
      leg(0, [-0.2, 0.1, 0], [0, 1, 0]),
      leg(3, [0, 0, -0.4], [1, 0.2, 0]),
    ],
  };
  const model = floatingModel(tree);
  const state = randomState(rand, model);
  const { q } = state;
  // foot a at (0, 0, -0.4) in link 2's frame_b; foot b where that point is, in link 4's frame_b: the cut is closed at q
  const poseAt = (qq: readonly number[], l: number) => kinematics(model, qq, zeros(model.nv))[model.links[l].body];
  const footA: V3 = [0, 0, -0.4];
  const pA = add(poseAt(q, 2).p, mulMV(poseAt(q, 2).R, footA));
  const footB = mulMtV(poseAt(q, 4).R, add(pA, scale(-1, poseAt(q, 4).p)));
  const ce = cardanEquivalent(tree);
  const sys: LoopSystem = { tree: ce.tree, cuts: [{ type: 'spherical', a: attach(ce, 2, identity(), footA), b: attach(ce, 4, identity(), footB), axes: [] }] };
  // velocities the loop allows: the leg rates 7, 8, 9 (the same numbers in both coordinate sets) solved from G vc = 0
  const c0 = toCardan(tree, q, state.v, state.tau);
  const { G } = constraintSystem(sys, expand(sys.tree), c0.q, c0.v);
  const rest = [7, 8, 9];
  const others = c0.v.map((x, i) => (rest.includes(i) ? 0 : x));
  const vr = solveDense(
    G.map((row) => rest.map((i) => row[i])),
    G.map((row) => -row.reduce((acc, g, i) => acc + g * others[i], 0)),
  );
  const v = state.v.map((x, i) => (rest.includes(i) ? vr[rest.indexOf(i)] : x));
  // internal torques on the legs only
  const tau = state.tau.map((x, i) => (i < 6 ? 0 : x));
  const c = toCardan(tree, q, v, tau);
  const sol = loopDynamics(sys, c.q, c.v, c.tau);
  if (sol.singular) throw new Error(`the loop oracle calls it singular: ${sol.why}`);
  const dv = fromCardanAccelerations(tree, c.q, c.v, sol.qdd);
  const flow = [...positionRate(model, q, v), ...dv];
  const split = (y: readonly number[]) => ({ q: y.slice(0, model.nq), v: y.slice(model.nq) });

  it('the feet stay together: their relative velocity is 0 and so is its rate along the motion', () => {
    const footVelocity = (y: readonly number[], l: number, o: V3) => {
      const k = kinematics(model, split(y).q, split(y).v)[model.links[l].body];
      return mulMV(k.R, add([k.v[3], k.v[4], k.v[5]], cross([k.v[0], k.v[1], k.v[2]], o)));
    };
    const gap = (y: readonly number[]) => add(footVelocity(y, 4, footB), scale(-1, footVelocity(y, 2, footA)));
    expect(Math.max(...gap([...q, ...v]).map(Math.abs))).toBeLessThan(1e-14);
    expect(Math.max(...directional(gap, [...q, ...v], flow, 1e-3).value.map(Math.abs))).toBeLessThan(1e-9);
    // the test has teeth: the tree's own accelerations, without the cut, pull the feet apart
    const loose = [...positionRate(model, q, v), ...forwardDynamics(model, q, v, tau)];
    expect(Math.max(...directional(gap, [...q, ...v], loose, 1e-3).value.map(Math.abs))).toBeGreaterThan(1e-2);
  });

  it("no gravity, leg torques only: the cut's forces are internal, momentum does not change", () => {
    const d = directional(
      (y) => {
        const m = momentum(model, split(y).q, split(y).v);
        return [...m.linear, ...m.angular];
      },
      [...q, ...v],
      flow,
      1e-3,
    );
    expect(Math.max(...d.value.map(Math.abs))).toBeLessThan(1e-9);
  });

  it("and do no work: the energy changes at the torques' power tau . v", () => {
    const d = directional((y) => [kineticEnergy(model, split(y).q, split(y).v)], [...q, ...v], flow, 1e-3);
    expect(d.value[0]).toBeCloseTo(
      tau.reduce((acc, t, i) => acc + t * v[i], 0),
      9,
    );
  });
});

// ---- against MuJoCo (WebAssembly, in this process): the conventions of qpos, qvel, qacc, qfrc_applied, xfrc_applied

describe("floating.ts against MuJoCo's qacc (floating-mjcf.ts)", () => {
  it('the same accelerations on 30 seeded random trees (free root turned by frame_a, ball, hinges, slides, fixed), to 1e-10', async () => {
    const mj = await (await import('@mujoco/mujoco')).default();
    let worst = 0;
    for (let seed = 201; seed <= 230; seed++) {
      const rand = prng(seed);
      const tree = randomFloatingTree(rand, 1 + (seed % 10), { joints: ['revolute', 'prismatic', 'ball', 'universal', 'spherical', 'fixed'] });
      // MuJoCo raises a massless moving body to 1e-14 kg: give every link its own mass instead
      tree.links.forEach((l) => (l.body ??= randomBody(rand)));
      const model = floatingModel(tree);
      const { q, v, tau } = randomState(rand, model);
      const fExt = tree.links.map((): ExternalForce | undefined =>
        rand() < 0.3 ? { force: [rand(), -rand(), rand()], torque: [rand(), rand(), -rand()] } : undefined,
      );
      const m = mj.MjModel.from_xml_string(floatingMjcf(tree));
      const d = new mj.MjData(m);
      try {
        const joint = (i: number) => {
          const id = mj.mj_name2id(m, mj.mjtObj.mjOBJ_JOINT.value, `j${i}`);
          return id >= 0 ? id : mj.mj_name2id(m, mj.mjtObj.mjOBJ_JOINT.value, `j${i}_0`);
        };
        const ix: MujocoIndex = {
          qpos: tree.links.map((_, i) => (joint(i) >= 0 ? (m.jnt_qposadr as Int32Array)[joint(i)] : -1)),
          dof: tree.links.map((_, i) => (joint(i) >= 0 ? (m.jnt_dofadr as Int32Array)[joint(i)] : -1)),
          body: tree.links.map((_, i) => mj.mj_name2id(m, mj.mjtObj.mjOBJ_BODY.value, `b${i}`)),
        };
        const s = toMujoco(tree, ix, m.nbody, q, v, tau, fExt);
        (d.qpos as Float64Array).set(s.qpos);
        (d.qvel as Float64Array).set(s.qvel);
        (d.qfrc_applied as Float64Array).set(s.qfrc);
        (d.xfrc_applied as Float64Array).set(s.xfrc);
        mj.mj_forward(m, d);
        worst = Math.max(worst, relDiff(forwardDynamics(model, q, v, tau, fExt), fromMujocoAccelerations(tree, ix, d.qacc as Float64Array)));
      } finally {
        d.delete();
        m.delete();
      }
    }
    expect(worst).toBeLessThan(1e-10);
  });
});

describe('floating.ts under a root of 1e9 kg is the fixed-base ABA (aba.ts)', () => {
  // a root of mass M and radius of gyration 10 m, held against gravity by an external force, at rest
  function onHeavyRoot(t: RneaTree, M: number): FloatingTree {
    const root: FloatingLink = { parent: -1, E: identity(), o: ZERO, joint: 'free', body: { m: M, c: ZERO, I: [100 * M, 100 * M, 100 * M, 0, 0, 0] } };
    return {
      gravity: t.gravity,
      links: [
        root,
        ...t.bodies.map((b): FloatingLink => ({ parent: b.parent + 1, E: b.E, o: b.o, joint: b.joint, axes: [b.axis], body: { m: b.m, c: b.c, I: b.I } })),
      ],
    };
  }
  const rand = prng(7);
  // links 1.. of a random floating tree of revolutes and sliders, link 0 (the free root) taken away: the world
  const randomTree = (): RneaTree => ({
    gravity: [0, -9.81, 0],
    bodies: randomFloatingTree(rand, 7, { joints: ['revolute', 'prismatic'] })
      .links.slice(1)
      .map((l) => ({
        parent: l.parent - 1,
        joint: l.joint as 'revolute' | 'prismatic',
        axis: l.axes![0],
        E: l.E,
        o: l.o,
        ...(l.body ?? { m: 0, c: ZERO, I: [0, 0, 0, 0, 0, 0] }),
      })),
  });
  for (const [name, t] of [
    ['the chain of mechanisms/chain.ts', chainTree(6, { L: 0.5, m: 1 })],
    ['a random tree of revolutes and sliders', randomTree()],
  ] as [string, RneaTree][]) {
    it(`${name}: the joints' accelerations agree to ~1e-8, and 1000 times better under 1e12 kg (the root's own motion)`, () => {
      const n = t.bodies.length;
      const qj = Array.from({ length: n }, () => 2 * rand() - 1),
        vj = Array.from({ length: n }, () => 2 * rand() - 1),
        tj = Array.from({ length: n }, () => 2 * rand() - 1);
      const ref = fixedAba(t, qj, vj, tj).qdd;
      const error = (M: number) => {
        const hold: ExternalForce = { force: scale(-M, t.gravity), torque: ZERO };
        const dv = forwardDynamics(floatingModel(onHeavyRoot(t, M)), [0, 0, 0, 1, 0, 0, 0, ...qj], [...zeros(6), ...vj], [...zeros(6), ...tj], [hold]);
        return relDiff(dv.slice(6), ref);
      };
      const e9 = error(1e9),
        e12 = error(1e12);
      expect(e9).toBeLessThan(3e-8);
      expect(e12).toBeLessThan(3e-11);
      expect(e9 / e12).toBeGreaterThan(500);
      expect(e9 / e12).toBeLessThan(2000);
    });
  }
});

describe('floating.ts: the physics of a free-floating tree', () => {
  const stateVector = (model: FloatingModel, x: readonly number[]) => ({ q: x.slice(0, model.nq), v: x.slice(model.nq) });

  it('no gravity, internal joint torques: momentum conserved over RK4 runs (drift ~h^4, 4e-13 at h = 1e-3), the centre of mass on a straight line', () => {
    const rand = prng(61);
    const model = floatingModel(randomFloatingTree(rand, 8, { gravity: ZERO }));
    const s = randomState(rand, model);
    // the root's free joint acts between the root and the world: its forces would be external
    const tau = s.tau.map((x, i) => (i < 6 ? 0 : x));
    const p0 = momentum(model, s.q, s.v),
      c0 = centreOfMass(model, s.q);
    // (step) => the largest relative change of [P, L] over 0.4 s, and of the centre of mass from c0 + t P / M
    const run = (h: number) => {
      let { q, v } = s,
        dp = 0,
        dc = 0;
      for (let k = 1; k * h <= 0.4 + 1e-12; k++) {
        ({ q, v } = rk4Step(model, q, v, h, tau));
        const p = momentum(model, q, v);
        dp = Math.max(dp, relDiff([...p.linear, ...p.angular], [...p0.linear, ...p0.angular]));
        dc = Math.max(dc, relDiff(centreOfMass(model, q).r, add(c0.r, scale((k * h) / c0.mass, p0.linear))));
      }
      return { dp, dc };
    };
    const coarse = run(2e-3),
      fine = run(1e-3);
    expect(fine.dp).toBeLessThan(3e-12);
    // RK4's own error, not a modelling one: halving the step divides it by ~2^4
    expect(coarse.dp / fine.dp).toBeGreaterThan(12);
    expect(fine.dc).toBeLessThan(1e-12);
  });

  it("dP/dt and dL/dt are the external forces: gravity, forces on the links, the root joint's f (world) and tau (body)", () => {
    const rand = prng(62);
    const model = floatingModel(randomFloatingTree(rand, 7));
    const { q, v, tau } = randomState(rand, model);
    const fExt = model.tree.links.map((): ExternalForce | undefined =>
      rand() < 0.5 ? { force: [rand(), -rand(), rand()], torque: [-rand(), rand(), rand()] } : undefined,
    );
    const x = [...q, ...v];
    const rate = [...positionRate(model, q, v), ...forwardDynamics(model, q, v, tau, fExt)];
    const d = directional(
      (y) => {
        const m = momentum(model, stateVector(model, y).q, stateVector(model, y).v);
        return [...m.linear, ...m.angular];
      },
      x,
      rate,
      1e-3,
    );
    // the expected rates, from the world positions of the links' centres of mass
    const { mass, r: com } = centreOfMass(model, q);
    // the root's frame_a is turned by E from the world: f and r are frame_a-resolved, tau frame_b-resolved (R = E R(Q))
    const E = model.tree.links[0].E;
    const R0 = mulMM(E, quatMatrix(q.slice(3, 7) as Quat)),
      r0 = mulMV(E, q.slice(0, 3) as V3),
      f0 = mulMV(E, tau.slice(0, 3) as V3);
    let F = add(scale(mass, model.tree.gravity), f0);
    let T = add(cross(scale(mass, com), model.tree.gravity), add(cross(r0, f0), mulMV(R0, tau.slice(3, 6) as V3)));
    fExt.forEach((e, l) => {
      if (!e) return;
      const c = linkCentre(model, q, l);
      F = add(F, e.force);
      T = add(T, add(cross(c, e.force), e.torque));
    });
    expect(relDiff(d.value, [...F, ...T])).toBeLessThan(1e-9);
  });

  it('energy: conserved over 500 RK4 steps with gravity and no inputs; with inputs its rate is their power tau . v', () => {
    const rand = prng(63);
    const model = floatingModel(randomFloatingTree(rand, 6));
    let { q, v } = randomState(rand, model);
    const { tau } = randomState(rand, model);
    const energy = (a: readonly number[], b: readonly number[]) => kineticEnergy(model, a, b) + potentialEnergy(model, a);
    const x = [...q, ...v];
    const d = directional(
      (y) => [energy(stateVector(model, y).q, stateVector(model, y).v)],
      x,
      [...positionRate(model, q, v), ...forwardDynamics(model, q, v, tau)],
      1e-3,
    );
    expect(d.value[0]).toBeCloseTo(
      tau.reduce((s, t, i) => s + t * v[i], 0),
      9,
    );
    const E0 = energy(q, v),
      scaleE = kineticEnergy(model, q, v) + Math.abs(potentialEnergy(model, q));
    for (let k = 0; k < 500; k++) ({ q, v } = rk4Step(model, q, v, 1e-3));
    expect(Math.abs(energy(q, v) - E0) / scaleE).toBeLessThan(1e-10);
  });
});

/** a link's centre of mass in the world (frame_b's origin for a massless link) */
function linkCentre(model: FloatingModel, q: readonly number[], l: number): V3 {
  const k = kinematics(model, q, zeros(model.nv))[model.links[l].body];
  return add(k.p, mulMV(k.R, model.tree.links[l].body?.c ?? ZERO));
}
