// A body's mass properties from its geoms, as MuJoCo's compiler computes them
// when a body has no <inertial> (compiler inertiafromgeom "auto", the
// default) or always ("true"): each solid geom's mass is its `mass`, or
// density (default 1000 kg/m^3) times its volume; its inertia about its own
// centre and axes is the closed form of the solid (user_objects.cc,
// mjCGeom::SetInertia, "volume" inertia); the body's is their sum moved to
// the common centre of mass (parallel axes) in the body's axes. Sizes are
// MuJoCo's half sizes: sphere [r], capsule and cylinder [r, half length],
// ellipsoid and box [three half sizes]. A geom with shellinertia="true" has
// its mass on its surface: density per area, MuJoCo's shell formulas
// (mjCGeom::GetVolume, SetInertia: "shell" inertia; an ellipsoid's area by
// Thomsen's approximation, its inertia by the difference of two ellipsoids
// 1e-6 m apart, as MuJoCo does). Mesh geoms: mesh-inertia.ts.
import type { Vec3 } from './urdf-parse.ts';
import { rotate } from './mjcf-frame.ts';
import type { MjcfGeom, Reader } from './mjcf-parse.ts';
import { type XmlNode, where } from './mjcf-xml.ts';

export type SolidType = 'sphere' | 'capsule' | 'cylinder' | 'ellipsoid' | 'box';
const SOLID_TYPES: readonly string[] = ['sphere', 'capsule', 'cylinder', 'ellipsoid', 'box'] satisfies SolidType[];

/** mass (kg), centre of mass and inertia about it [xx, yy, zz, xy, xz, yz] in the body's frame */
export interface MassProperties {
  mass: number;
  com: Vec3;
  inertia: [number, number, number, number, number, number];
}

// (type, half sizes, shell) => volume (m^3), or surface area (m^2) of a shell
export function solidVolume(type: SolidType, s: readonly number[], shell = false): number {
  const [r, h] = [s[0], 2 * s[1]];
  if (shell) {
    switch (type) {
      case 'sphere':
        return 4 * Math.PI * r * r;
      case 'capsule':
        return 4 * Math.PI * r * r + 2 * Math.PI * r * h;
      case 'cylinder':
        return 2 * Math.PI * r * r + 2 * Math.PI * r * h;
      case 'ellipsoid': {
        const p = 1.6075,
          t = (s[0] * s[1]) ** p + (s[1] * s[2]) ** p + (s[2] * s[0]) ** p;
        return 4 * Math.PI * (t / 3) ** (1 / p);
      }
      case 'box':
        return 8 * (s[0] * s[1] + s[1] * s[2] + s[2] * s[0]);
    }
  }
  switch (type) {
    case 'sphere':
      return (4 * Math.PI * r ** 3) / 3;
    case 'capsule':
      return Math.PI * (r * r * h + (4 * r ** 3) / 3);
    case 'cylinder':
      return Math.PI * r * r * h;
    case 'ellipsoid':
      return (4 * Math.PI * s[0] * s[1] * s[2]) / 3;
    case 'box':
      return 8 * s[0] * s[1] * s[2];
  }
}

// (type, half sizes, mass, shell) => principal moments about the centre along the geom's axes (z: a capsule's or cylinder's axis)
export function solidInertia(type: SolidType, s: readonly number[], m: number, shell = false): Vec3 {
  if (shell) return shellInertia(type, s, m);
  const [a, b, c] = s.map((x) => x * x);
  switch (type) {
    case 'sphere':
      return [0.4 * m * a, 0.4 * m * a, 0.4 * m * a];
    case 'cylinder': {
      const h = 2 * s[1],
        x = (m * (3 * a + h * h)) / 12;
      return [x, x, (m * a) / 2];
    }
    case 'capsule': {
      // a cylinder and two hemispheres (a sphere's mass), each hemisphere's centre of mass 3r/8 beyond the cylinder's end
      const r = s[0],
        h = 2 * s[1];
      const ms = (m * 4 * r) / (4 * r + 3 * h),
        mc = m - ms;
      const x = (mc * (3 * a + h * h)) / 12 + 0.4 * ms * a + (ms * h * (3 * r + 2 * h)) / 8;
      return [x, x, (mc * a) / 2 + 0.4 * ms * a];
    }
    case 'ellipsoid':
      return [(m * (b + c)) / 5, (m * (a + c)) / 5, (m * (a + b)) / 5];
    case 'box':
      return [(m * (b + c)) / 3, (m * (a + c)) / 3, (m * (a + b)) / 3];
  }
}

/** MuJoCo's shell moments: the mass spread over the surface, in the order of its SetInertia */
function shellInertia(type: SolidType, s: readonly number[], m: number): Vec3 {
  const r = s[0],
    hh = s[1],
    h = 2 * hh,
    rr = r * r;
  switch (type) {
    case 'sphere':
      return [(2 * m * rr) / 3, (2 * m * rr) / 3, (2 * m * rr) / 3];
    case 'capsule': {
      // a tube and two hemispherical shells, each's centre r/2 beyond the tube's end
      const As = 4 * Math.PI * rr,
        Ac = 2 * Math.PI * r * h;
      const ms = (m * As) / (As + Ac),
        mc = m - ms;
      const hs = r / 2,
        at = hh + hs;
      const x = (mc * (6 * rr + h * h)) / 12 + (2 * ms * rr) / 3 + ms * (at * at - hs * hs);
      return [x, x, mc * rr + (2 * ms * rr) / 3];
    }
    case 'cylinder': {
      const Ad = Math.PI * rr,
        Ac = 2 * Math.PI * r * h;
      const md = (m * Ad) / (2 * Ad + Ac),
        mc = m - 2 * md;
      const x = (mc * (6 * rr + h * h)) / 12 + 2 * ((md * rr) / 4 + md * hh * hh);
      return [x, x, mc * rr + 2 * ((md * rr) / 2)];
    }
    case 'ellipsoid': {
      const eps = 1e-6,
        [a, b, c] = s,
        [ae, be, ce] = [a + eps, b + eps, c + eps];
      const Va = (4 * Math.PI * a * b * c) / 3,
        Vb = (4 * Math.PI * ae * be * ce) / 3;
      const ma = (Va * m) / (Vb - Va),
        mb = (Vb * m) / (Vb - Va);
      return [
        (mb * (be * be + ce * ce)) / 5 - (ma * (b * b + c * c)) / 5,
        (mb * (ae * ae + ce * ce)) / 5 - (ma * (a * a + c * c)) / 5,
        (mb * (ae * ae + be * be)) / 5 - (ma * (a * a + b * b)) / 5,
      ];
    }
    case 'box': {
      // three pairs of faces: lx ly (normal z), ly lz (normal x), lz lx (normal y)
      const [lx, ly, lz] = [2 * s[0], 2 * s[1], 2 * s[2]];
      const [s00, s11, s22] = [s[0] * s[0], s[1] * s[1], s[2] * s[2]];
      const [A0, A1, A2] = [lx * ly, ly * lz, lz * lx],
        At = 2 * (A0 + A1 + A2);
      const [m0, m1, m2] = [(m * A0) / At, (m * A1) / At, (m * A2) / At];
      const Ix = (m0 * ly * ly) / 12 + (m1 * (ly * ly + lz * lz)) / 12 + (m2 * lz * lz) / 12;
      const Iy = (m0 * lx * lx) / 12 + (m1 * lz * lz) / 12 + (m2 * (lx * lx + lz * lz)) / 12;
      const Iz = (m0 * (lx * lx + ly * ly)) / 12 + (m1 * ly * ly) / 12 + (m2 * lx * lx) / 12;
      return [2 * (m0 * s22 + m2 * s11 + Ix), 2 * (m0 * s22 + m1 * s00 + Iy), 2 * (m1 * s00 + m2 * s11 + Iz)];
    }
  }
}

export interface SolidPart {
  mass: number;
  pos: Vec3;
  /** the geom's orientation in the body (w, x, y, z) */
  quat: readonly number[];
  /** principal moments along the part's axes, or (tensor) its inertia [xx, yy, zz, xy, xz, yz] in its axes */
  moments?: Vec3;
  tensor?: readonly number[];
}

// (parts) => their sum: total mass, centre of mass, inertia about it in the body's axes
export function combine(parts: readonly SolidPart[]): MassProperties {
  const mass = parts.reduce((s, p) => s + p.mass, 0);
  const com: Vec3 = [0, 0, 0];
  if (mass > 0) for (const p of parts) for (let i = 0; i < 3; i++) com[i] += (p.mass * p.pos[i]) / mass;
  const I = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const p of parts) {
    // R J R^T (J = diag(moments) or the tensor), then m (|d|^2 E - d d^T) for the offset d from the common centre
    const R = [rotate(p.quat, [1, 0, 0]), rotate(p.quat, [0, 1, 0]), rotate(p.quat, [0, 0, 1])];
    const [xx, yy, zz, xy, xz, yz] = p.tensor ?? [...(p.moments ?? [0, 0, 0]), 0, 0, 0];
    const J = [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ];
    const d = p.pos.map((x, i) => x - com[i]),
      dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        for (let k = 0; k < 3; k++) for (let l = 0; l < 3; l++) I[i][j] += R[k][i] * J[k][l] * R[l][j];
        I[i][j] += p.mass * ((i === j ? dd : 0) - d[i] * d[j]);
      }
    }
  }
  return { mass, com, inertia: [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]] };
}

/** MuJoCo's inertia from geoms: solids and meshes of groups in inertiagrouprange; an sdf's mass is a warning */
export function geomInertia(r: Reader, e: XmlNode, geoms: readonly MjcfGeom[], groups: readonly number[]): MassProperties | undefined {
  const [lo, hi] = r.compiler.groups;
  const nodes = e.children.filter((c) => c.tag === 'geom');
  const parts = [];
  for (const [i, g] of geoms.entries()) {
    if (groups[i] < lo || groups[i] > hi) continue;
    const { density, mass: massGiven } = g;
    if (g.type === 'mesh') {
      const part = r.meshMasses.part(g, nodes[i]);
      if (part) parts.push(part);
      continue;
    }
    if (g.type === 'sdf') {
      if (massGiven !== 0 && density !== 0)
        r.warnings.push(`${where(e)}: the mass of sdf geom ${g.name ?? g.mesh ?? ''} is not computed (give the body an <inertial>)`);
      continue;
    }
    if (!SOLID_TYPES.includes(g.type)) continue;
    const type = g.type as SolidType;
    const mass = massGiven ?? density * solidVolume(type, g.size, g.shell);
    parts.push({ mass, pos: g.pos, quat: g.quat, moments: solidInertia(type, g.size, mass, g.shell) });
  }
  const total = combine(parts);
  return total.mass > 0 ? total : undefined;
}
