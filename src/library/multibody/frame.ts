// The frame connector of the multibody library (relaxing paper, section 8):
// a Frame is a small component holding one coordinate system's kinematics
// and its cut force/torque, all resolved in the world frame ("for simplicity,
// it is assumed that all vectors are resolved in a common frame").
//
//   across: R  orientation, maps frame coordinates to world (3x3)
//           r  origin position, w angular velocity, v velocity,
//           z  angular acceleration, a acceleration
//   through: f force and t torque acting on the component at this frame
//           (at a connection they sum to zero: Newton's third law)
import { type Expr, type Mat3, type Vec3, mat3 } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';

/** a coordinate system's kinematics and the force and torque cut at it, all world-resolved (signals `<frame>.r[1]`, ...) */
export class Frame extends Component {
  /** orientation: maps frame coordinates to world coordinates (3x3) */
  readonly R: Mat3;
  /** origin position, m */
  readonly r: Vec3;
  /** angular velocity, rad/s */
  readonly w: Vec3;
  /** velocity of the origin, m/s */
  readonly v: Vec3;
  /** angular acceleration, rad/s^2 */
  readonly z: Vec3;
  /** acceleration of the origin, m/s^2 */
  readonly a: Vec3;
  /** force on the component at this frame, N (sums to zero at a connection) */
  readonly f: Vec3;
  /** torque on the component at this frame, N m (sums to zero at a connection) */
  readonly t: Vec3;
  /** the cut: connect frames with model.connect(frameA, frameB) */
  readonly cut: Connector;

  constructor(name: string) {
    super(name);
    const row = (i: number) => [1, 2, 3].map((j) => this.variable(`R[${i}][${j}]`)) as [Expr, Expr, Expr];
    this.R = mat3([row(1), row(2), row(3)]);
    this.r = this.vector('r');
    this.w = this.vector('w');
    this.v = this.vector('v');
    this.z = this.vector('z');
    this.a = this.vector('a');
    this.f = this.vector('f');
    this.t = this.vector('t');
    this.cut = this.connector('', {
      across: { R: this.R, r: this.r, w: this.w, v: this.v, z: this.z, a: this.a },
      through: { f: this.f, t: this.t },
    });
  }
}
