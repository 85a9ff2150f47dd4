// MJCF keyframes as start states: mjcfMechanism(robot, { keyframe }) and
// `--keyframe name` start from the key's qpos, qvel and ctrl. The oracle is
// MuJoCo's own reading of the same file (model.key_qpos, key_qvel,
// key_ctrl), mapped through the importer's state contract (mjcf-peer.ts):
// Kron's start state equals it (a ball's or free joint's quaternion
// normalised, as Kron keeps it a unit quaternion). Unknown names are a usage
// error with the keys listed; a qpos of the wrong length a model error naming
// the key's line.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { ModelError, UsageError } from '../../src/errors.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { kronInProcess } from '../cli/in-process.ts';
import { coordinateNames, freePeersAfterAll, jointsOf, smoothPeer, stateIndex } from './mjcf-peer.ts';

const fixture = (f: string) => readFileSync(new URL(`fixtures/mjcf/${f}`, import.meta.url), 'utf8');
freePeersAfterAll();

/** the key's qpos with every run of four numbers that is a quaternion (Q[1..4]) normalised */
function normalised(qpos: readonly number[], names: readonly string[]): number[] {
  const out = [...qpos];
  names.forEach((n, i) => {
    if (!n.endsWith('.Q[1]')) return;
    const k = Math.hypot(...out.slice(i, i + 4));
    for (let j = i; j < i + 4; j++) out[j] /= k;
  });
  return out;
}

describe('MJCF keyframes: the start state is the key, as MuJoCo reads it', () => {
  const cases: [string, string, number][] = [
    ['actuators.xml', 'bent', 0],
    ['actuators.xml', '1', 1],
    ['humanoid.xml', 'squat', 0],
    ['humanoid.xml', 'supine', 3],
  ];
  for (const [file, key, k] of cases) {
    it(`${file} key ${key}: x0 equals MuJoCo's key_qpos and key_qvel row ${k}; the actuators' ctrl starts at key_ctrl`, async () => {
      const xml = fixture(file);
      const robot = parseMjcf(xml, file);
      const c = compile(mjcfMechanism(robot, { keyframe: key }).mechanism);
      const peer = await smoothPeer(xml);
      const { nq, nv, nu } = peer.model;
      const qpos = Array.from(peer.model.key_qpos as Float64Array).slice(k * nq, (k + 1) * nq);
      const qvel = Array.from(peer.model.key_qvel as Float64Array).slice(k * nv, (k + 1) * nv);
      const names = coordinateNames(jointsOf(robot));
      const x0 = c.x0();
      const start = (list: string[]) => list.map((n) => x0[stateIndex(c, n)]);
      normalised(qpos, names.q).forEach((v, i) => expect(start(names.q)[i], names.q[i]).toBeCloseTo(v, 14));
      qvel.forEach((v, i) => expect(start(names.v)[i], names.v[i]).toBeCloseTo(v, 14));
      if (file === 'actuators.xml') {
        const ctrl = Array.from(peer.model.key_ctrl as Float64Array).slice(k * nu, (k + 1) * nu);
        const inputs = [
          'yaw_motor.ctrl',
          'shoulder.ctrl',
          'elbow_actuator0.ctrl',
          'slide_servo.ctrl',
          'pull.ctrl',
          'elbow_actuator1.ctrl',
          'yaw_actuator1.ctrl',
        ];
        const state = c.createState();
        state.derivatives(0, x0, new Float64Array(x0.length));
        inputs.forEach((n, i) => expect(state.signal(n), n).toBe(ctrl[i]));
      }
    });
  }

  it('an unknown key is a usage error naming the nearest and listing the keys; a qpos of the wrong length a model error at the key', () => {
    const robot = parseMjcf(fixture('humanoid.xml'), 'humanoid.xml');
    expect(() => mjcfMechanism(robot, { keyframe: 'sqat' })).toThrow(UsageError);
    expect(() => mjcfMechanism(robot, { keyframe: 'sqat' })).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ hint: 'did you mean squat? its keyframes: squat, stand_on_left_leg, prone, supine (an unnamed key by its number)' }),
      }),
    );
    const short = parseMjcf(fixture('actuators.xml').replace('qpos="0 0.3 0 0.05 1 0 0 0"', 'qpos="0 0.3"'), 'actuators.xml');
    expect(() => mjcfMechanism(short, { keyframe: '1' })).toThrow(ModelError);
    expect(() => mjcfMechanism(short, { keyframe: '1' })).toThrow(/actuators.xml:56: <key>: qpos has 2 numbers, the model's qpos 8/);
  });
});

describe('kron --keyframe', () => {
  // in this process (main()): the flag's reading and messages are the subject, not the process
  const kron = (...args: string[]) => kronInProcess(...args);

  it('simulate humanoid.xml --keyframe squat: the first sample is the key (abdomen_y.q 0.4, knee_right.q -2.65)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kron-key-')), 'run.csv');
    const r = await kron(
      'simulate',
      'test/io/fixtures/mjcf/humanoid.xml',
      '--keyframe',
      'squat',
      '--stop',
      '0.002',
      '--signals',
      'abdomen_y.q,knee_right.q,root.r[3]',
      '--out',
      out,
      '--no-cache',
    );
    expect(r.stderr).toContain(`wrote 3 samples of 3 signals to ${out}`);
    const [head, first] = readFileSync(out, 'utf8').trim().split('\n');
    expect(head).toBe('time,abdomen_y.q,knee_right.q,root.r[3]');
    expect(first.split(',').map(Number)).toEqual([0, 0.4, -2.65, 0.596]);
  });

  it('an unknown key, and --keyframe on a URDF robot, are usage errors (exit 2) with hints', async () => {
    const unknown = await kron('compile', 'test/io/fixtures/mjcf/humanoid.xml', '--keyframe', 'squa', '--no-cache');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      'UsageError: keyframe "squa" is not in Humanoid\n  hint: did you mean squat? its keyframes: squat, stand_on_left_leg, prone, supine',
    );
    const urdf = await kron('compile', 'mechanisms/puma560.urdf', '--keyframe', 'home');
    expect(urdf.status).toBe(2);
    expect(urdf.stderr).toContain('UsageError: --keyframe is for MJCF robots, and mechanisms/puma560.urdf is a URDF robot');
  });
});
