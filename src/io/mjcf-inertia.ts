// A body's mass properties from its geoms, as MuJoCo's compiler computes them
// when a body has no <inertial> (compiler inertiafromgeom "auto", the
// default) or always ("true"): each solid geom's mass is its `mass`, or
// density (default 1000 kg/m^3) times its volume; its inertia about its own
// centre and axes is the closed form of the solid (user_objects.cc,
// mjCGeom::SetInertia, "volume" inertia); the body's is their sum moved to
// the common centre of mass (parallel axes) in the body's axes. Sizes are
// MuJoCo's half sizes: sphere [r], capsule and cylinder [r, half length],
// ellipsoid and box [three half sizes].
import type { Vec3 } from './urdf-parse.ts';
import { rotate } from './mjcf-frame.ts';

export type SolidType = 'sphere' | 'capsule' | 'cylinder' | 'ellipsoid' | 'box';

/** mass (kg), centre of mass and inertia about it [xx, yy, zz, xy, xz, yz] in the body's frame */
export interface MassProperties {
  mass: number;
  com: Vec3;
  inertia: [number, number, number, number, number, number];
}

// (type, half sizes) => volume (m^3)
export function solidVolume(type: SolidType, s: readonly number[]): number {
  switch (type) {
    case 'sphere': return (4 * Math.PI * s[0] ** 3) / 3;
    case 'capsule': return Math.PI * (s[0] * s[0] * 2 * s[1] + (4 * s[0] ** 3) / 3);
    case 'cylinder': return Math.PI * s[0] * s[0] * 2 * s[1];
    case 'ellipsoid': return (4 * Math.PI * s[0] * s[1] * s[2]) / 3;
    case 'box': return 8 * s[0] * s[1] * s[2];
  }
}

// (type, half sizes, mass) => principal moments about the centre along the geom's axes (z: a capsule's or cylinder's axis)
export function solidInertia(type: SolidType, s: readonly number[], m: number): Vec3 {
  const [a, b, c] = s.map((x) => x * x);
  switch (type) {
    case 'sphere': return [0.4 * m * a, 0.4 * m * a, 0.4 * m * a];
    case 'cylinder': {
      const h = 2 * s[1], x = (m * (3 * a + h * h)) / 12;
      return [x, x, (m * a) / 2];
    }
    case 'capsule': {
      // a cylinder and two hemispheres (a sphere's mass), each hemisphere's centre of mass 3r/8 beyond the cylinder's end
      const r = s[0], h = 2 * s[1];
      const ms = (m * 4 * r) / (4 * r + 3 * h), mc = m - ms;
      const x = (mc * (3 * a + h * h)) / 12 + 0.4 * ms * a + (ms * h * (3 * r + 2 * h)) / 8;
      return [x, x, (mc * a) / 2 + 0.4 * ms * a];
    }
    case 'ellipsoid': return [(m * (b + c)) / 5, (m * (a + c)) / 5, (m * (a + b)) / 5];
    case 'box': return [(m * (b + c)) / 3, (m * (a + c)) / 3, (m * (a + b)) / 3];
  }
}

export interface SolidPart {
  mass: number;
  pos: Vec3;
  /** the geom's orientation in the body (w, x, y, z) */
  quat: readonly number[];
  moments: Vec3;
}

// (parts) => their sum: total mass, centre of mass, inertia about it in the body's axes
export function combine(parts: readonly SolidPart[]): MassProperties {
  const mass = parts.reduce((s, p) => s + p.mass, 0);
  const com: Vec3 = [0, 0, 0];
  if (mass > 0) for (const p of parts) for (let i = 0; i < 3; i++) com[i] += (p.mass * p.pos[i]) / mass;
  const I = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const p of parts) {
    // R diag(moments) R^T, then m (|d|^2 E - d d^T) for the offset d from the common centre
    const R = [rotate(p.quat, [1, 0, 0]), rotate(p.quat, [0, 1, 0]), rotate(p.quat, [0, 0, 1])];
    const d = p.pos.map((x, i) => x - com[i]), dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        for (let k = 0; k < 3; k++) I[i][j] += R[k][i] * p.moments[k] * R[k][j];
        I[i][j] += p.mass * ((i === j ? dd : 0) - d[i] * d[j]);
      }
    }
  }
  return { mass, com, inertia: [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]] };
}
