// A branched mechanism: a torso that slides vertically (prismatic along y on
// a spring-damper kS, dS, its carriage a point mass mC) and turns about the vertical (revolute about
// y) on the carriage, with two three-link arms
// attached at its shoulders. Each arm starts with a fixed rotation that
// points its x axis sideways (left arm +z, right arm -z), then joints about
// z, y and x (the last one twists the hand, whose centre of mass is off the
// twist axis). Gravity along -y. Eight degrees of freedom.
import { type Frame, Mechanism } from 'kron';

export const parameters = {
  /** carriage mass of the vertical slide (0: massless, see test/multibody/models.test.ts) */
  mC: 2,
  /** stiffness and damping of the slide (without them the whole tree falls freely) */
  kS: 2000,
  dS: 40,
  /** torso mass, height, shoulder half-width, depth */
  mT: 10,
  hT: 0.6,
  wT: 0.2,
  dT: 0.15,
  /** arm link mass and length; the hand's centre of mass sits off the twist axis by e */
  mA: 1.5,
  LA: 0.3,
  e: 0.03,
  /** start values: torso height and yaw, arm angles */
  y0: 0,
  yaw0: 0.2,
  qA: 0.3,
};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const mech = new Mechanism('tree');
  const slide = mech.prismatic('slide', { axis: [0, 1, 0], q: o.y0, c: o.kS, d: o.dS });
  // the carriage only slides: a point mass on purpose
  const carriage = mech.body('carriage', { m: o.mC, I: [0, 0, 0] });
  const yaw = mech.revolute('yaw', { axis: [0, 1, 0], q: o.yaw0 });
  const box = (m: number, a: number, b: number, c: number) => [(m * (b * b + c * c)) / 12, (m * (a * a + c * c)) / 12, (m * (a * a + b * b)) / 12] as const;
  const torso = mech.body('torso', { m: o.mT, rcm: [0, o.hT / 2, 0], I: box(o.mT, o.dT, o.hT, 2 * o.wT) });
  mech.connect(mech.world.frame_b, slide.frame_a);
  mech.connect(slide.frame_b, carriage.frame_a);
  mech.connect(slide.frame_b, yaw.frame_a);
  mech.connect(yaw.frame_b, torso.frame_a);
  for (const [side, sign] of [
    ['L', 1],
    ['R', -1],
  ] as const) {
    const shoulder = mech.rotation(`shoulder${side}`, { axis: [0, 1, 0], angle: (-sign * Math.PI) / 2, r: [0, o.hT, sign * o.wT] });
    mech.connect(yaw.frame_b, shoulder.frame_a);
    arm(mech, side, shoulder.frame_b, o, sign);
  }
  return mech;
}

/** joints <side>1..3 about z, y, x, each followed by a link body and a bar of length LA */
function arm(mech: Mechanism, side: string, base: Frame, o: typeof parameters, sign: number): void {
  const axes = [
    [0, 0, 1],
    [0, 1, 0],
    [1, 0, 0],
  ] as const;
  let parent = base;
  axes.forEach((axis, i) => {
    const k = i + 1;
    const joint = mech.revolute(`${side}${k}`, { axis: [...axis], q: sign * o.qA * (2 - k) });
    const rcm: [number, number, number] = k === 3 ? [o.LA / 2, o.e, 0] : [o.LA / 2, 0, 0];
    const I = [o.mA * 1e-3, (o.mA * o.LA * o.LA) / 12, (o.mA * o.LA * o.LA) / 12] as const;
    const link = mech.body(`${side}link${k}`, { m: o.mA, rcm, I });
    mech.connect(parent, joint.frame_a);
    mech.connect(joint.frame_b, link.frame_a);
    if (k < 3) {
      const bar = mech.bar(`${side}bar${k}`, { r: [o.LA, 0, 0] });
      mech.connect(joint.frame_b, bar.frame_a);
      parent = bar.frame_b;
    }
  });
}
