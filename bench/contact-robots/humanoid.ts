// MuJoCo's own benchmark humanoid (test/io/fixtures/mjcf/humanoid.xml, model/
// humanoid/humanoid.xml of google-deepmind/mujoco) falling on its plane from
// the file's pose, no control, in Kron and in MuJoCo (WebAssembly, same
// process): the scene of test/contact/robots.test.ts and bench/contact-robots.ts.
// The contact laws, made as close as the two allow: the importer's own
// mapping (src/io/mjcf-solref.ts), MuJoCo's pair solref and solimp (the mean
// of geom and plane: .0175 1 and .9 .97 .002) turned into the linear spring
// that rests each body, on its own weight, at MuJoCo's soft-constraint depth;
// friction the larger of geom and plane. (Before the importer read solimp,
// this module set k = m d / (1 - d) / tc^2 by hand, d = .99.)
// The limbs touch each other as the file lets them (the importer's contact
// selection: src/io/mjcf-filter.ts; condim 1, so without friction). Not
// modelled: MuJoCo's tendon limits as constraints (limit springs here).
import { readFileSync } from 'node:fs';
import { compile } from '../../src/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { ContactScene } from '../../src/contact/scene.ts';
import type { FrictionLaw } from '../../src/contact/law.ts';
import { Body } from '../../src/library/multibody/body.ts';
import type { Mechanism } from '../../src/library/multibody/mechanism.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { MujocoPeer, mujoco, mujocoReadable } from '../../src/bench/mujoco.ts';
import { FIXTURES } from './go2.ts';

const read = (f: string) => readFileSync(FIXTURES + f, 'utf8');

export interface Humanoid {
  mechanism: Mechanism;
  compiled: CompiledModel;
  contact: ContactScene;
  mass: number;
  /** each body's contact_f[3]: their sum is the plane's total normal force */
  normalForces: string[];
}

// () => the humanoid in Kron, its contact law the importer's (header)
export function humanoidKron(options: { mode?: 'torn' | 'relaxed'; friction?: FrictionLaw } = {}): Humanoid {
  const robot = parseMjcf(read('humanoid.xml'), 'humanoid.xml', { readFile: read });
  const { mechanism } = mjcfMechanism(robot, { contact: true });
  const bodies = mechanism.children.filter((c): c is Body => c instanceof Body);
  const compiled = compile(mechanism, options.mode && { mode: options.mode });
  return {
    mechanism,
    compiled,
    contact: ContactScene.of(mechanism, { friction: options.friction }),
    mass: bodies.reduce((m, b) => m + b.mass, 0),
    normalForces: compiled.signalNames().filter((n) => n.endsWith('.contact_f[3]')),
  };
}

export interface MujocoHumanoid {
  peer: MujocoPeer;
  step: number;
  mass: number;
  advance(): void;
  time(): number;
  /** the torso's position (the free joint's qpos) */
  base(): [number, number, number];
  /** the sum of the normal forces of the contacts with the floor (geom 0), N */
  floorForce(): number;
  /** contacts between two of the robot's geoms (MuJoCo's self-collision) */
  selfContacts(): number;
}

// () => MuJoCo's humanoid at the file's pose, its own time step (0.005 s)
export async function humanoidMujoco(): Promise<MujocoHumanoid> {
  const mj = await mujoco();
  const peer = await MujocoPeer.fromXml(mujocoReadable(read('humanoid.xml')));
  const { model, data } = peer;
  const f6 = new mj.DoubleBuffer(6);
  const contacts = () => Array.from({ length: data.ncon }, (_, i) => (data.contact as unknown as { get(i: number): { geom1: number; geom2: number } }).get(i));
  return {
    peer,
    step: model.opt.timestep,
    mass: (model.body_mass as Float64Array).reduce((a, b) => a + b, 0),
    advance: () => mj.mj_step(model, data),
    time: () => data.time,
    base: () => {
      const q = data.qpos as Float64Array;
      return [q[0], q[1], q[2]];
    },
    floorForce() {
      mj.mj_forward(model, data);
      let fn = 0;
      contacts().forEach((c, i) => {
        if (c.geom1 === 0 || c.geom2 === 0) (mj.mj_contactForce(model, data, i, f6), (fn += (f6.GetView() as Float64Array)[0]));
      });
      return fn;
    },
    selfContacts: () => contacts().filter((c) => c.geom1 !== 0 && c.geom2 !== 0).length,
  };
}
