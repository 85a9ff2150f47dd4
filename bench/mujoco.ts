// bench/mujoco: the peer of `kron bench`, MuJoCo's official WebAssembly build
// (npm @mujoco/mujoco, Google DeepMind's bindings, versioned with MuJoCo), run
// in the same Node process as Kron's generated code.
//   forward  mj_forward: positions, velocities, M(q) and its factorisation, bias
//            forces, passive (spring-damper) forces, qacc; contacts and
//            constraints are disabled in the MJCF (bench/mjcf.ts)
import loadMujoco, { type MainModule, type MjData, type MjModel } from '@mujoco/mujoco';
import { microsPerCall, rng } from './timing.ts';

let module: Promise<MainModule> | undefined;

/** the WebAssembly module, instantiated once per process */
export function mujoco(): Promise<MainModule> {
  return (module ??= loadMujoco());
}

export class MujocoPeer {
  private constructor(
    private readonly mj: MainModule,
    readonly model: MjModel,
    readonly data: MjData,
  ) {}

  // (MJCF) => a model with its data; throws MuJoCo's load error as an Error
  static async load(xml: string): Promise<MujocoPeer> {
    const mj = await mujoco();
    const model = mj.MjModel.from_xml_string(xml);
    return new MujocoPeer(mj, model, new mj.MjData(model));
  }

  get version(): string {
    return this.mj.mj_versionString();
  }

  get nv(): number {
    return this.model.nv;
  }

  // (q, qd in MJCF joint order) => qacc after mj_forward, a copy
  accelerations(q: ArrayLike<number>, qd: ArrayLike<number>): Float64Array {
    this.setState(q, qd);
    this.mj.mj_forward(this.model, this.data);
    return Float64Array.from(this.data.qacc as Float64Array);
  }

  /** median µs per mj_forward, each batch at fresh qpos, qvel uniform in [-1, 1) (timing.ts) */
  microsPerForward(seed: number): number {
    const rand = rng(seed);
    const { mj, model, data } = this;
    const q = new Float64Array(model.nq), qd = new Float64Array(model.nv);
    return microsPerCall({
      call: () => mj.mj_forward(model, data),
      fresh: () => {
        for (let i = 0; i < q.length; i++) q[i] = rand() * 2 - 1;
        for (let i = 0; i < qd.length; i++) qd[i] = rand() * 2 - 1;
        this.setState(q, qd);
        return (data.qacc as Float64Array)[0] ?? 0;
      },
    });
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
