// A solid cylinder from frame_a to frame_b (the Modelica library's
// BodyCylinder): a bar r from frame_a to frame_b and a body with its centre of
// mass at r/2, mass rho pi R^2 L, inertia m R^2 / 2 about its axis and
// m (L^2 + 3 R^2) / 12 across it (L = |r|, R the radius).
import type { Vec3Like } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { ModelError } from '../../errors.ts';
import { Body } from './body.ts';
import { FixedTranslation } from './fixed-translation.ts';
import type { Frame } from './frame.ts';
import { NUMBER, NUMBERS, TEXT, type OptionKind, checkOptions } from '../options.ts';

/** a cylindrical link: its end point, radius, density and colour */
export interface BodyCylinderOptions {
  /** from frame_a to frame_b, frame_a coordinates (m) */
  r: readonly [number, number, number];
  /** outer diameter (m); default 0.05 */
  diameter?: number;
  /** density (kg/m^3); default steel, 7700 */
  density?: number;
  /** the viewer's colour (CSS) */
  color?: string;
  /** world-resolved gravity (the Mechanism builder passes the world's) */
  gravity?: Vec3Like;
}

/** the density of steel, kg/m^3 (the default) */
export const STEEL = 7700;

const BODYCYLINDER_OPTIONS = { r: NUMBERS, diameter: NUMBER, density: NUMBER, color: TEXT, gravity: NUMBERS } satisfies Record<
  keyof BodyCylinderOptions,
  OptionKind
>;

export class BodyCylinder extends Component {
  /** the link's first end */
  readonly frame_a: Frame;
  /** the link's second end */
  readonly frame_b: Frame;
  /** the link's mass and inertia, from its cylinder */
  readonly body: Body;
  /** the rigid bar from frame_a to frame_b */
  readonly bar: FixedTranslation;

  constructor(name: string, options: BodyCylinderOptions) {
    super(name);
    checkOptions(`body cylinder ${name}`, options, BODYCYLINDER_OPTIONS);
    const r = options.r,
      L = Math.hypot(...r),
      R = (options.diameter ?? 0.05) / 2;
    const density = options.density ?? STEEL;
    if (!(L > 0) || !(R > 0) || !(density > 0)) {
      throw new ModelError(`body cylinder ${name}: length ${L}, diameter ${2 * R} and density ${density} must be positive`, {
        component: name,
        hint: 'give a non-zero r, a positive diameter and density',
      });
    }
    const m = density * Math.PI * R * R * L;
    const axial = (m * R * R) / 2,
      across = (m * (L * L + 3 * R * R)) / 12;
    const u = r.map((x) => x / L);
    // I = across (1 - u u^T) + axial u u^T, in frame_a coordinates
    const I = (i: number, j: number) => (i === j ? across : 0) + (axial - across) * u[i] * u[j];
    this.bar = this.add(new FixedTranslation('bar', { r }));
    this.body = this.add(
      new Body('body', {
        m,
        rcm: [r[0] / 2, r[1] / 2, r[2] / 2],
        I: [I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)],
        gravity: options.gravity,
        geometry: {
          shape: { type: 'cylinder', radius: R, length: L },
          color: options.color ?? '#8e9aaf',
          offset: [r[0] / 2, r[1] / 2, r[2] / 2],
          axis: [u[0], u[1], u[2]],
        },
      }),
    );
    // the bar's frames are the cylinder's: fewer variables than frames of its own
    this.frame_a = this.bar.frame_a;
    this.frame_b = this.bar.frame_b;
    this.connect(this.frame_a, this.body.frame_a);
  }
}
