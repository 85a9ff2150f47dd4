// MJCF contact stiffness against MuJoCo (its WebAssembly build, same
// process, test/io/mjcf-peer.ts): a free sphere and a free box resting on
// a plane, with MuJoCo's default solref/solimp and with others, read by
// MuJoCo's compiler and by Kron's importer from the same text. Oracles:
// MuJoCo's rest penetration (-dist of its contacts, stepped 10 s to rest),
// against Kron's simulated rest penetration (to 1%, the importer's mapping
// of src/io/mjcf-solref.ts) and against mjcf-solref.ts's rest depth (to
// 1e-3: the soft-constraint balance it solves is MuJoCo's).
import { describe, expect, it } from 'vitest';
import { compile, simulate } from '../../src/index.ts';
import { ContactScene } from '../../src/contact/scene.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { restDepth } from '../../src/io/mjcf-solref.ts';
import { MujocoPeer, mujoco } from '../../src/bench/mujoco.ts';
import { freePeersAfterAll } from './mjcf-peer.ts';

freePeersAfterAll();

interface Case {
  shape: 'sphere' | 'box';
  /** the geom's half height above its centre when resting (radius, or the box's z half size) */
  half: number;
  size: string;
  /** the geom's solref and solimp attributes ('' for MuJoCo's defaults) */
  sol: string;
  /** the plane's (default: the geom's, so that the pair's mix is the geom's own) */
  plane?: string;
  /** the pair's solref and solimp as MuJoCo mixes them, worked by hand */
  solref: number[];
  solimp: number[];
}

const CASES: Case[] = [
  { shape: 'sphere', half: 0.1, size: '0.1', sol: '', solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2] },
  { shape: 'sphere', half: 0.1, size: '0.1', sol: 'solref="0.05 0.7" solimp="0.5 0.99 0.01 0.3 3"', solref: [0.05, 0.7], solimp: [0.5, 0.99, 0.01, 0.3, 3] },
  { shape: 'box', half: 0.05, size: '0.1 0.2 0.05', sol: '', solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2] },
  { shape: 'box', half: 0.05, size: '0.1 0.2 0.05', sol: 'solref="0.03 1.2" solimp="0.2 0.9 0.02"', solref: [0.03, 1.2], solimp: [0.2, 0.9, 0.02, 0.5, 2] },
  // the plane's defaults mixed in: the means
  {
    shape: 'sphere',
    half: 0.1,
    size: '0.1',
    sol: 'solref="0.05 0.7" solimp="0.5 0.99 0.01 0.3 3"',
    plane: '',
    solref: [0.035, 0.85],
    solimp: [0.7, 0.97, 0.0055, 0.4, 2.5],
  },
  // the geom of higher priority alone
  {
    shape: 'sphere',
    half: 0.1,
    size: '0.1',
    sol: 'solref="0.05 0.7" solimp="0.5 0.99 0.01 0.3 3" priority="1"',
    plane: '',
    solref: [0.05, 0.7],
    solimp: [0.5, 0.99, 0.01, 0.3, 3],
  },
];

const xmlOf = (c: Case) => `<mujoco model="rest">
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" ${c.plane ?? c.sol}/>
    <body name="b" pos="0 0 ${c.half + 0.01}">
      <freejoint/>
      <geom type="${c.shape}" size="${c.size}" mass="2" ${c.sol}/>
    </body>
  </worldbody>
</mujoco>`;

// (case) => MuJoCo's contacts' penetrations at rest
async function mujocoDepths(c: Case): Promise<number[]> {
  const mj = await mujoco();
  const peer = await MujocoPeer.fromXml(xmlOf(c));
  for (let i = 0; i < 5000; i++) mj.mj_step(peer.model, peer.data);
  const contact = peer.data.contact as unknown as { get(i: number): { dist: number } };
  const depths = Array.from({ length: peer.data.ncon }, (_, i) => -contact.get(i).dist);
  peer.delete();
  return depths;
}

describe("MJCF contact rests at MuJoCo's depth (solref and solimp mapped)", () => {
  for (const c of CASES) {
    it(`a ${c.shape}, ${c.sol || 'default solref and solimp'}${c.plane === undefined ? '' : ', the plane default'}`, async () => {
      const depths = await mujocoDepths(c);
      expect(depths).toHaveLength(c.shape === 'box' ? 4 : 1);
      const mj = depths[0];
      for (const d of depths) expect(Math.abs(d / mj - 1)).toBeLessThan(1e-6);
      // the balance solved by mjcf-solref.ts is MuJoCo's
      expect(Math.abs(restDepth(c.solref, c.solimp, depths.length) / mj - 1)).toBeLessThan(1e-3);
      // Kron, from the same text, comes to rest as deep
      const { mechanism } = mjcfMechanism(parseMjcf(xmlOf(c), 'rest.xml'), { contact: true });
      const r = simulate(compile(mechanism), {
        stop: 3,
        interval: 0.5,
        integrator: 'radau',
        signals: ['b_free.r[3]', 'b_free.v[3]'],
        contact: ContactScene.of(mechanism),
      });
      const kron = c.half - r.final('b_free.r[3]');
      expect(Math.abs(r.final('b_free.v[3]'))).toBeLessThan(1e-6);
      expect(Math.abs(kron / mj - 1), `Kron ${kron} m, MuJoCo ${mj} m`).toBeLessThan(1e-2);
    });
  }
});
