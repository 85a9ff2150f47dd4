// Contact forces drawn in the view: for every pair whose centre of pressure
// contact.<pair>.p[1..3] and force on B contact.<pair>.f[1..3] the run
// recorded (kron simulate --contact --out run.json records them,
// src/contact/signals.ts), an arrow at p along f and a dot at p, hidden while
// the pair pushes no force. A typical force of the run — the 90th percentile
// of |f| over the samples where a pair pushes — draws as a quarter of the
// mechanism's size, and no arrow is longer than twice that: scaled by the
// largest force, one impact (a robot dropped onto its feet pushes hundreds of
// times its weight for a millisecond) shrank every resting arrow to a dot.
// MuJoCo scales by the model's mean mass for the same reason. Arrows and dots are drawn over the bodies (no depth
// test): a contact point lies on the surface of, or just inside, the bodies
// that touch, and the force on B points into B.
import * as THREE from 'three';
import { sampleBefore } from '../../src/io/poses.ts';

/** the arrows' colour: magenta, which no part, axis or grid of the view uses (the browser test finds it by colour) */
export const ARROW_COLOR = '#e000e0';
const PREFIX = 'contact.';
/** the force drawn a quarter of the size long: this quantile of the run's nonzero |f| */
const TYPICAL = 0.9;
/** an arrow is at most this many times the typical force's length (a capped arrow says so in state()) */
const CAP = 2;
const P = ['p[1]', 'p[2]', 'p[3]'],
  F = ['f[1]', 'f[2]', 'f[3]'];

interface Pair {
  name: string;
  p: ArrayLike<number>[];
  f: ArrayLike<number>[];
  arrow: THREE.ArrowHelper;
  dot: THREE.Mesh;
}

/** (the run's signals) => the names of the pairs with all of p[1..3] and f[1..3] recorded */
export function contactPairs(signals: Record<string, ArrayLike<number>>): string[] {
  const names = new Set(
    Object.keys(signals)
      .filter((n) => n.startsWith(PREFIX) && n.endsWith('.f[1]'))
      .map((n) => n.slice(PREFIX.length, -'.f[1]'.length)),
  );
  return [...names].filter((pair) => [...P, ...F].every((s) => `${PREFIX}${pair}.${s}` in signals));
}

// drawn over everything: an unlit material without depth test, drawn last
function overlay<M extends THREE.Material>(material: M): M {
  return Object.assign(material, { depthTest: false, depthWrite: false, transparent: true });
}

export class ContactArrows {
  readonly group = new THREE.Group();
  private readonly pairs: Pair[];
  /** metres of arrow per newton */
  readonly scale: number;
  /** the largest |f| of the run (N) */
  readonly largest: number;
  /** the typical |f| (N, the TYPICAL quantile of the nonzero ones), drawn a quarter of the size long */
  readonly typical: number;
  private visible = true;
  /** the longest arrow drawn (m): CAP times the typical force's */
  private readonly longest: number;

  /** (the run's signals and sample times, the mechanism's size in m) */
  constructor(
    signals: Record<string, ArrayLike<number>>,
    private readonly time: ArrayLike<number>,
    size: number,
  ) {
    const column = (pair: string, s: string) => signals[`${PREFIX}${pair}.${s}`];
    const names = contactPairs(signals);
    const pushes: number[] = [];
    for (const pair of names) {
      const [x, y, z] = F.map((s) => column(pair, s));
      for (let k = 0; k < time.length; k++) {
        const f = Math.hypot(x[k], y[k], z[k]);
        if (f > 0 && Number.isFinite(f)) pushes.push(f);
      }
    }
    pushes.sort((a, b) => a - b);
    this.largest = pushes.at(-1) ?? 0;
    this.typical = pushes.length ? pushes[Math.ceil(TYPICAL * pushes.length) - 1] : 0;
    this.scale = this.typical > 0 ? size / 4 / this.typical : 0;
    this.longest = (CAP * size) / 4;
    const dotGeometry = new THREE.SphereGeometry(size / 120, 12, 8);
    const dotMaterial = overlay(new THREE.MeshBasicMaterial({ color: ARROW_COLOR }));
    this.pairs = names.map((name) => {
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 1, ARROW_COLOR);
      (overlay(arrow.line.material as THREE.Material), overlay(arrow.cone.material as THREE.Material));
      const dot = new THREE.Mesh(dotGeometry, dotMaterial);
      for (const o of [arrow, arrow.line, arrow.cone, dot]) o.renderOrder = 10;
      arrow.name = dot.name = `contact ${name}`;
      this.group.add(arrow, dot);
      return { name, p: P.map((s) => column(name, s)), f: F.map((s) => column(name, s)), arrow, dot };
    });
    this.group.visible = this.pairs.length > 0;
  }

  /** the arrows at time t: f interpolated between samples as the poses are; p too, or the sample's that pushes when the other does not (a contact made or broken between them) */
  setTime(t: number): void {
    const { time } = this;
    const k = sampleBefore(time, t),
      next = Math.min(k + 1, time.length - 1);
    const span = time[next] - time[k];
    const s = span > 0 ? Math.min(1, Math.max(0, (t - time[k]) / span)) : 0;
    const p = new THREE.Vector3(),
      f = new THREE.Vector3(),
      pa = new THREE.Vector3(),
      pb = new THREE.Vector3(),
      fb = new THREE.Vector3();
    for (const pair of this.pairs) {
      f.set(pair.f[0][k], pair.f[1][k], pair.f[2][k]);
      fb.set(pair.f[0][next], pair.f[1][next], pair.f[2][next]);
      pa.set(pair.p[0][k], pair.p[1][k], pair.p[2][k]);
      pb.set(pair.p[0][next], pair.p[1][next], pair.p[2][next]);
      const aPushes = f.lengthSq() > 0,
        bPushes = fb.lengthSq() > 0;
      p.copy(aPushes && bPushes ? pa.lerp(pb, s) : aPushes ? pa : pb);
      f.lerp(fb, s);
      const length = Math.min(f.length() * this.scale, this.longest);
      const shown = length > 0 && Number.isFinite(length);
      pair.arrow.visible = pair.dot.visible = shown;
      if (!shown) continue;
      pair.dot.position.copy(p);
      pair.arrow.position.copy(p);
      pair.arrow.setDirection(f.normalize());
      // a head large enough to see (and for the browser test to find) on a short arrow
      pair.arrow.setLength(length, 0.3 * length, 0.15 * length);
    }
  }

  setVisible(on: boolean): void {
    this.visible = on;
    this.group.visible = on && this.pairs.length > 0;
  }

  /** the scale, for the info overlay: '' when the run recorded no contact forces */
  scaleText(): string {
    if (!this.pairs.length || !(this.typical > 0)) return '';
    const capped =
      this.largest * this.scale > this.longest ? `, capped at ${(CAP * this.typical).toPrecision(3)} N (largest ${this.largest.toPrecision(3)} N)` : '';
    return `${this.typical.toPrecision(3)} N per ${(this.typical * this.scale).toPrecision(3)} m${capped}`;
  }

  /** the scale in words, for the checkbox's title */
  describe(): string {
    if (!this.pairs.length) return 'contact forces (c): this run recorded none (kron simulate --contact --out run.json records them)';
    return `contact forces (c): an arrow at each pair's centre of pressure along the force on its second body; ${this.typical.toPrecision(3)} N, a typical force of the run (90% of its forces are at most this), draws ${(this.typical * this.scale).toPrecision(3)} m long, and no arrow is longer than ${this.longest.toPrecision(3)} m (the largest force is ${this.largest.toPrecision(3)} N)`;
  }

  /** for tests: the pairs, whether the arrows show, the scale, and each drawn arrow's foot and tip (world) */
  state(): {
    count: number;
    visible: boolean;
    scale: number;
    largest: number;
    typical: number;
    longest: number;
    arrows: { pair: string; shown: boolean; from: number[]; to: number[] }[];
  } {
    const arrows = this.pairs.map(({ name, arrow }) => {
      const dir = new THREE.Vector3(0, 1, 0).applyQuaternion(arrow.quaternion).multiplyScalar(arrow.line.scale.y + arrow.cone.scale.y);
      return { pair: name, shown: arrow.visible, from: arrow.position.toArray(), to: arrow.position.clone().add(dir).toArray() };
    });
    const { scale, largest, typical, longest } = this;
    return { count: this.pairs.length, visible: this.visible, scale, largest, typical, longest, arrows };
  }
}
