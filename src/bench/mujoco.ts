// src/bench/mujoco: the peer of `kron bench`, MuJoCo's official WebAssembly build
// (npm @mujoco/mujoco, Google DeepMind's bindings, versioned with MuJoCo), run
// in the same Node process as Kron's generated code.
//   forward  mj_forward: positions, velocities, M(q) and its factorisation, bias
//            forces, passive (spring-damper) forces, qacc; contacts and
//            constraints are disabled in the MJCF (src/bench/mjcf.ts)
// A written model is loaded through the mjSpec API (header parsed from XML,
// bodies added one by one) rather than MuJoCo's XML reader, which recurses per
// nesting level and overflows the WebAssembly stack on chains deeper than
// about 160; the tests check that both ways give the same dynamics.
import type { MainModule, MjData, MjModel, MjSpec, MjsBody } from '@mujoco/mujoco';
import { UsageError } from '../errors.ts';
import { quaternionOfMatrix } from '../io/mjcf-frame.ts';
import { type Mjcf, type MjcfBody, mjcfXml } from './mjcf.ts';
import { type Subject, rng } from './timing.ts';

let module: Promise<MainModule> | undefined;

/** the WebAssembly module, instantiated once per process */
export function mujoco(): Promise<MainModule> {
  return (module ??= load());
}

// imported on first use: @mujoco/mujoco is a devDependency, so an installed kron
// runs `kron bench --no-mujoco` (and the rest of the CLI) without it
async function load(): Promise<MainModule> {
  const imported = await import('@mujoco/mujoco').catch((e: unknown) => {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new UsageError('the MuJoCo peer of kron bench needs the package @mujoco/mujoco, which is not installed', {
      hint: 'npm install @mujoco/mujoco, or run kron bench --no-mujoco',
    });
  });
  return imported.default();
}

export class MujocoPeer {
  private constructor(
    private readonly mj: MainModule,
    readonly model: MjModel,
    readonly data: MjData,
  ) {}

  // (written model) => a model with its data, built through mjSpec; throws MuJoCo's errors as Errors
  static async load(doc: Mjcf): Promise<MujocoPeer> {
    const mj = await mujoco();
    const spec = mj.parseXMLString(mjcfXml(doc.model, doc.gravity, []));
    try {
      const world = mj.mjs_findBody(spec, 'world');
      if (!world) throw new Error('the MuJoCo spec has no world body');
      for (const b of doc.bodies) addBody(mj, spec, world, b);
      const model = mj.mj_compile(spec);
      return new MujocoPeer(mj, model, new mj.MjData(model));
    } finally {
      spec.delete();
    }
  }

  // (MJCF text, files it reads by name: mesh files) => a model with its data, through MuJoCo's XML reader and its virtual file system
  static async fromXml(xml: string, files: Record<string, Uint8Array> = {}): Promise<MujocoPeer> {
    const mj = await mujoco();
    const vfs = new mj.MjVFS();
    try {
      for (const [name, bytes] of Object.entries(files)) vfs.addBuffer(name, bytes);
      const model = mj.MjModel.from_xml_string(xml, vfs);
      return new MujocoPeer(mj, model, new mj.MjData(model));
    } finally {
      vfs.delete();
    }
  }

  get version(): string {
    return this.mj.mj_versionString();
  }

  get nv(): number {
    return this.model.nv;
  }

  // (qpos, qvel, optional qfrc_applied, ctrl and act; mjcf-state.ts maps Kron's states and inputs onto them) => qacc after mj_forward, a copy (act_dot: data.act_dot)
  accelerations(q: ArrayLike<number>, qd: ArrayLike<number>, qfrc?: ArrayLike<number>, ctrl?: ArrayLike<number>, act?: ArrayLike<number>): Float64Array {
    this.setState(q, qd);
    (this.data.act as Float64Array).set(act ?? new Float64Array(this.model.na));
    (this.data.qfrc_applied as Float64Array).set(qfrc ?? new Float64Array(this.model.nv));
    (this.data.ctrl as Float64Array).set(ctrl ?? new Float64Array(this.model.nu));
    this.mj.mj_forward(this.model, this.data);
    return Float64Array.from(this.data.qacc as Float64Array);
  }

  /** mj_forward as a subject of timing.ts: fresh() sets qpos, qvel uniform in [-1, 1) */
  forwardSubject(seed: number): Subject {
    const rand = rng(seed);
    const { mj, model, data } = this;
    const q = new Float64Array(model.nq),
      qd = new Float64Array(model.nv);
    return {
      call: () => mj.mj_forward(model, data),
      fresh: () => {
        for (let i = 0; i < q.length; i++) q[i] = rand() * 2 - 1;
        for (let i = 0; i < qd.length; i++) qd[i] = rand() * 2 - 1;
        this.setState(q, qd);
        return (data.qacc as Float64Array)[0] ?? 0;
      },
    };
  }

  /** frees the WebAssembly memory of model and data */
  delete(): void {
    this.data.delete();
    this.model.delete();
  }

  /** views into WebAssembly memory are taken anew each time: they detach when the memory grows */
  private setState(q: ArrayLike<number>, qd: ArrayLike<number>): void {
    (this.data.qpos as Float64Array).set(q);
    (this.data.qvel as Float64Array).set(qd);
  }
}

/**
 * the MJCF text MuJoCo's from_xml_string can read here: each <include file>
 * replaced by the included file's elements (it has no file system to read
 * them from), and mesh assets and mesh geoms taken out (their binary files
 * are not here; a body with a mesh must have an <inertial> for the dynamics
 * to stay the same)
 */
export function mujocoReadable(xml: string, readFile: (name: string) => string | undefined = () => undefined): string {
  const inlined = xml.replace(/<include\s+file="([^"]*)"\s*\/>/g, (all, name: string) => {
    const text = readFile(name);
    return text === undefined ? all : text.replace(/^[\s\S]*?<mujoco[^>]*>|<\/mujoco>\s*$/g, '');
  });
  return inlined.replace(/<mesh [^>]*\/>/g, '').replace(/<geom [^>]*mesh="[^"]*"[^>]*\/>/g, '');
}

/** adds b and its subtree under parent, as the XML of src/bench/mjcf.ts would */
function addBody(mj: MainModule, spec: MjSpec, parent: MjsBody, b: MjcfBody): void {
  const defaults = mj.mjs_getSpecDefault(spec)!;
  const body = mj.mjs_addBody(parent, defaults)!;
  mj.mjs_setName(body.element, b.name);
  body.pos.set(b.pos);
  body.quat.set(quaternion(b.R));
  if (b.inertial) {
    const { m, c, I } = b.inertial;
    body.explicitinertial = true;
    body.mass = m;
    body.ipos.set(c);
    // as the XML: a diagonal inertia as such, a full one (which must be positive definite) as fullinertia
    if (I[1] === 0 && I[2] === 0 && I[5] === 0) body.inertia.set([I[0], I[4], I[8]]);
    else body.fullinertia.set([I[0], I[4], I[8], I[1], I[2], I[5]]);
  }
  const j = b.joint;
  const joint = mj.mjs_addJoint(body, defaults)!;
  mj.mjs_setName(joint.element, j.name);
  joint.type = { hinge: mj.mjtJoint.mjJNT_HINGE, slide: mj.mjtJoint.mjJNT_SLIDE, ball: mj.mjtJoint.mjJNT_BALL, free: mj.mjtJoint.mjJNT_FREE }[j.type];
  joint.axis.set(j.axis);
  joint.stiffness[0] = j.stiffness;
  joint.springref = j.springref;
  joint.damping[0] = j.damping;
  joint.armature = 0;
  joint.limited = mj.mjtLimited.mjLIMITED_FALSE;
  for (const c of b.children) addBody(mj, spec, body, c);
}

/** (rotation, row-major 3x3) => unit quaternion w, x, y, z (the MJCF reader's: io/mjcf-frame.ts) */
export const quaternion = quaternionOfMatrix;
