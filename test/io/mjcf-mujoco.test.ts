// The MJCF importer against MuJoCo itself: the same XML file read by MuJoCo's
// own compiler (its WebAssembly build, same process) and by parseMjcf +
// mjcfMechanism; at random states, MuJoCo's qacc equals Kron's der(qd) (and
// der(v), der(w) of the free joint), both forms, to 1e-10 relative. The
// state mapping is the importer's contract: hinge j.q = qpos, j.qd = qvel;
// free j.r, j.Q = qpos, j.v, j.w = qvel (the free joint hangs from the world).
// Both sides leave out what the importer does not model: on MuJoCo's side
// contacts and constraints (joint limits, friction loss, tendon limits) are
// disabled; on Kron's side limitsAndFriction is false. Springs, dampers,
// armature, tendons, actuators (at ctrl = 0: the iiwa's position servos
// pull toward 0) and gravity stay on in both.
// Mesh assets are taken out of the text MuJoCo reads (their files are not
// here; every body that has one has an <inertial>, so the dynamics do not
// change).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { freePeersAfterAll, smoothPeer, worstQaccDifference } from './mjcf-peer.ts';

const fixture = (f: string) => readFileSync(new URL(`fixtures/mjcf/${f}`, import.meta.url), 'utf8');
freePeersAfterAll();

const robots: [string, string, number, ((xml: string) => string)?][] = [
  // file, what it exercises, MuJoCo's nv, what is taken out of the text for both sides
  [
    'features.xml',
    'one of each feature: an <include>d nested default class, childclass, eulerseq, euler, axisangle, xyaxes, zaxis, ' +
      'fullinertia, inertial quat, geom inertia (box, cylinder fromto, ellipsoid, sphere with mass, capsule with density), a welded body, ' +
      'hinge and slide ref and springref, joint pos, a ball joint, a free body with two joints in its child, unnamed joints, armature on a free joint, a hinge and a slide, gravity',
    14,
  ],
  ['humanoid.xml', "MuJoCo's humanoid: inertia from capsule and sphere geoms (fromto, zaxis), several joints per body, joint pos, springs, a free root", 27],
  ['iiwa14.xml', "menagerie's KUKA iiwa 14: <inertial> everywhere, unnormalised quats, nested classes, radians", 7],
  ['ur5e.xml', "menagerie's UR5e: a jointless base welded to the world at a quat, joints from a default axis, nested classes", 6],
  ['go2.xml', "menagerie's Unitree Go2: a floating quadruped, freejoint under childclass, inertial quats, damping", 18],
  ['h1.xml', "menagerie's Unitree H1: a floating humanoid, a free pelvis with three chains, shoulder frames at quats", 25],
  // its <equality> couples the fingers: exact in Kron, off on MuJoCo's side here (test/io/mjcf-loops.test.ts checks couplings)
  [
    'panda.xml',
    "menagerie's Franka Panda: general servos, armature and damping from a class, a finger tendon, slide fingers",
    9,
    (xml) => xml.replace(/<equality>[\s\S]*?<\/equality>/, ''),
  ],
];

describe('MJCF import: Kron der(qd) equals MuJoCo qacc of the same file', () => {
  for (const [file, what, nv, edit = (xml: string) => xml] of robots) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${what}; ${mode}: 25 random states to 1e-10`, async () => {
        // MuJoCo reads the XML from a string: the one include is put in place by hand
        const xml = edit(fixture(file)).replace(
          '<include file="parts/defaults.xml"/>',
          fixture('parts/defaults.xml').replace(/^[\s\S]*?<mujoco>|<\/mujoco>\s*$/g, ''),
        );
        const robot = parseMjcf(xml, file);
        const { mechanism } = mjcfMechanism(robot, { limitsAndFriction: false });
        const c = compile(mechanism, { mode });
        const peer = await smoothPeer(xml);
        expect(peer.nv).toBe(nv);
        const worst = worstQaccDifference(c, robot, peer);
        expect(worst, `largest relative difference in ${file}, ${mode}`).toBeLessThan(1e-10);
      });
    }
  }
});
