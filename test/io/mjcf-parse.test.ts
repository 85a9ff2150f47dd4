// parseMjcf on small files, each against a hand computation: body
// orientations (quat, axisangle, euler with eulerseq, xyaxes, zaxis) as the
// images of the unit axes, defaults inherited through nested classes and
// childclass, inertia from each solid geom against its textbook closed form,
// and the component names of the naming contract.
import { describe, expect, it } from 'vitest';
import { parseMjcf } from '../../src/io/mjcf-parse.ts';
import { mjcfMechanism } from '../../src/io/mjcf.ts';
import { rotate } from '../../src/io/mjcf-frame.ts';
import { Joint } from '../../src/library/multibody/joint.ts';

const robot = (body: string, head = '') => parseMjcf(`<mujoco model="t">${head}<worldbody>${body}</worldbody></mujoco>`, 't.xml');
const s2 = Math.SQRT1_2;

function expectVec(a: readonly number[], b: readonly number[]) {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 14));
}

describe('body orientations: where the rotation takes the unit axes', () => {
  const cases: [string, string, [number[], number[]][]][] = [
    // quat is normalised: 180 degrees about (0, 1, 1)/sqrt2 takes x to -x and y to z
    [
      'quat (unnormalised)',
      'quat="0 0 1 1"',
      [
        [
          [1, 0, 0],
          [-1, 0, 0],
        ],
        [
          [0, 1, 0],
          [0, 0, 1],
        ],
      ],
    ],
    [
      'axisangle in degrees',
      'axisangle="0 0 2 90"',
      [
        [
          [1, 0, 0],
          [0, 1, 0],
        ],
        [
          [0, 0, 1],
          [0, 0, 1],
        ],
      ],
    ],
    // moving axes xyz: R = Rx(0) Ry(90) Rz(90); x -> Ry(90) y = y, z -> Ry(90) z = x
    [
      'euler xyz (moving axes)',
      'euler="0 90 90"',
      [
        [
          [1, 0, 0],
          [0, 1, 0],
        ],
        [
          [0, 0, 1],
          [1, 0, 0],
        ],
      ],
    ],
    [
      'xyaxes (y made orthogonal to x)',
      'xyaxes="1 1 0 0 1 0"',
      [
        [
          [1, 0, 0],
          [s2, s2, 0],
        ],
        [
          [0, 1, 0],
          [-s2, s2, 0],
        ],
        [
          [0, 0, 1],
          [0, 0, 1],
        ],
      ],
    ],
    [
      'zaxis',
      'zaxis="1 0 0"',
      [
        [
          [0, 0, 1],
          [1, 0, 0],
        ],
        [
          [0, 1, 0],
          [0, 1, 0],
        ],
      ],
    ],
    [
      'zaxis along -z: half a turn about x',
      'zaxis="0 0 -3"',
      [
        [
          [0, 0, 1],
          [0, 0, -1],
        ],
        [
          [0, 1, 0],
          [0, -1, 0],
        ],
      ],
    ],
  ];
  for (const [what, attr, images] of cases) {
    it(what, () => {
      const q = robot(`<body name="b" ${attr}><geom size="0.1"/></body>`).bodies[0].quat;
      for (const [v, image] of images) expectVec(rotate(q, v), image);
    });
  }

  it('euler with a fixed-axes eulerseq XYZ: R = Rz(90) Ry(90) Rx(0), z -> Rz(90) x = y', () => {
    const q = robot('<body name="b" euler="0 90 90"><geom size="0.1"/></body>', '<compiler eulerseq="XYZ"/>').bodies[0].quat;
    expectVec(rotate(q, [0, 0, 1]), [0, 1, 0]);
  });

  it('angle="radian": axisangle and hinge range in radians; degrees by default', () => {
    const r = robot('<body name="b" axisangle="0 0 1 1.5707963267948966"><joint range="-1 2"/><geom size="0.1"/></body>', '<compiler angle="radian"/>');
    expectVec(rotate(r.bodies[0].quat, [1, 0, 0]), [0, 1, 0]);
    expect(r.bodies[0].joints[0].range).toEqual([-1, 2]);
    const d = robot('<body name="b"><joint range="-90 180" ref="45"/><geom size="0.1"/></body>');
    expectVec(d.bodies[0].joints[0].range!, [-Math.PI / 2, Math.PI]);
    expect(d.bodies[0].joints[0].ref).toBeCloseTo(Math.PI / 4, 15);
  });
});

describe('defaults', () => {
  const head = `<default>
      <joint damping="1" stiffness="2"/>
      <default class="a"><joint stiffness="3" armature="0.5"/>
        <default class="b"><joint damping="4"/></default>
      </default>
    </default>`;

  it("a nested class inherits its parent's attributes and overrides some; childclass applies to the body's own joints and its descendants; class wins over childclass", () => {
    const r = robot(
      `<body name="p" childclass="b">
        <joint name="j1"/><joint name="j2" class="main"/><joint name="j3" class="a" damping="7"/>
        <geom size="0.1"/>
        <body name="c"><joint name="j4"/><geom size="0.1"/></body>
      </body>
      <body name="q"><joint name="j5"/><geom size="0.1"/></body>`,
      head,
    );
    const joints = Object.fromEntries(
      [...r.bodies[0].joints, ...r.bodies[0].children[0].joints, ...r.bodies[1].joints].map((j) => [j.name, [j.damping, j.stiffness, j.armature]]),
    );
    expect(joints).toEqual({ j1: [4, 3, 0.5], j2: [1, 2, 0], j3: [7, 3, 0.5], j4: [4, 3, 0.5], j5: [1, 2, 0] });
  });

  it('limited: a range limits the joint under autolimits (the default); limited="false" does not; without autolimits a range needs limited', () => {
    const r = robot(
      '<body name="p"><joint name="a" range="-10 10"/><joint name="b" range="-10 10" limited="false"/><joint name="c"/><geom size="0.1"/></body>',
    );
    expect(r.bodies[0].joints.map((j) => j.range !== undefined)).toEqual([true, false, false]);
    expect(() => robot('<body name="p"><joint range="-1 1"/><geom size="0.1"/></body>', '<compiler autolimits="false"/>')).toThrow(
      /has a range but not limited/,
    );
  });
});

describe('inertia from geoms: the closed forms of the solids (density 1000 unless given)', () => {
  const [r, h, a, b, c] = [0.05, 0.3, 0.1, 0.2, 0.3];
  const cases: [string, string, number, [number, number, number]][] = [
    [
      'sphere',
      `<geom type="sphere" size="${r}"/>`,
      (1000 * 4 * Math.PI * r ** 3) / 3,
      [0.4, 0.4, 0.4].map((k) => k * ((1000 * 4 * Math.PI * r ** 3) / 3) * r * r) as [number, number, number],
    ],
    (() => {
      const m = 1000 * Math.PI * r * r * h;
      return ['cylinder', `<geom type="cylinder" size="${r} ${h / 2}"/>`, m, [(m * (3 * r * r + h * h)) / 12, (m * (3 * r * r + h * h)) / 12, (m * r * r) / 2]];
    })(),
    (() => {
      // a cylinder and two hemispheres whose centres of mass are 3r/8 beyond its ends (parallel axes from there)
      const mc = 1000 * Math.PI * r * r * h,
        mh = (1000 * 2 * Math.PI * r ** 3) / 3,
        d = h / 2 + (3 * r) / 8;
      const hemi = (2 / 5) * mh * r * r - mh * ((3 * r) / 8) ** 2 + mh * d * d;
      const x = (mc * (3 * r * r + h * h)) / 12 + 2 * hemi;
      return ['capsule', `<geom type="capsule" size="${r} ${h / 2}"/>`, mc + 2 * mh, [x, x, (mc * r * r) / 2 + 2 * (2 / 5) * mh * r * r]];
    })(),
    (() => {
      const m = (300 * 4 * Math.PI * a * b * c) / 3;
      return [
        'ellipsoid (density 300)',
        `<geom type="ellipsoid" size="${a} ${b} ${c}" density="300"/>`,
        m,
        [(m * (b * b + c * c)) / 5, (m * (a * a + c * c)) / 5, (m * (a * a + b * b)) / 5],
      ];
    })(),
    (() => {
      const m = 2.5,
        [X, Y, Z] = [2 * a, 2 * b, 2 * c];
      return [
        'box (mass given)',
        `<geom type="box" size="${a} ${b} ${c}" mass="2.5"/>`,
        m,
        [(m * (Y * Y + Z * Z)) / 12, (m * (X * X + Z * Z)) / 12, (m * (X * X + Y * Y)) / 12],
      ];
    })(),
  ];
  for (const [what, geom, mass, moments] of cases) {
    it(what, () => {
      const inertial = robot(`<body name="b">${geom}</body>`).bodies[0].inertial!;
      expect(inertial.mass).toBeCloseTo(mass, 12);
      inertial.inertia.slice(0, 3).forEach((I, i) => expect(I / moments[i]).toBeCloseTo(1, 12));
      inertial.inertia.slice(3).forEach((I) => expect(I).toBe(0));
    });
  }

  it('two spheres apart: the centre of mass between them, parallel axes; a fromto capsule along x has its axis along x', () => {
    const m = (1000 * 4 * Math.PI * r ** 3) / 3;
    const two = robot(`<body name="b"><geom size="${r}" pos="0 0 0.2"/><geom size="${r}" pos="0 0 -0.2"/></body>`).bodies[0].inertial!;
    expectVec(two.com, [0, 0, 0]);
    expect(two.inertia[0] / (2 * (0.4 * m * r * r + m * 0.04))).toBeCloseTo(1, 12);
    expect(two.inertia[2] / (2 * 0.4 * m * r * r)).toBeCloseTo(1, 12);
    const along = robot(`<body name="b"><geom type="capsule" fromto="0 0 0 ${h} 0 0" size="${r}"/></body>`).bodies[0].inertial!;
    const axial = robot(`<body name="b"><geom type="capsule" size="${r} ${h / 2}"/></body>`).bodies[0].inertial!;
    expectVec(along.com, [h / 2, 0, 0]);
    expect(along.inertia[0] / axial.inertia[2]).toBeCloseTo(1, 12);
    expect(along.inertia[1] / axial.inertia[0]).toBeCloseTo(1, 12);
  });

  it('an <inertial> wins over geoms (inertiafromgeom auto); inertiafromgeom="true" takes the geoms', () => {
    const body = '<body name="b"><inertial pos="0 0 0" mass="3" diaginertia="1 1 1"/><geom size="0.1"/></body>';
    expect(robot(body).bodies[0].inertial!.mass).toBe(3);
    expect(robot(body, '<compiler inertiafromgeom="true"/>').bodies[0].inertial!.mass).toBeCloseTo((1000 * 4 * Math.PI * 0.001) / 3, 12);
  });
});

describe('component names (the contract)', () => {
  it('sanitised MJCF names; unnamed: <body>_free, <body>_joint<k> (k within the body); an unnamed body is body<id>', () => {
    const r = robot(`<body name="torso"><freejoint/><geom size="0.1"/>
        <body name="leg"><joint name="hip-x.1"/><joint/><joint type="slide"/><geom size="0.1"/>
          <body><joint name="2knee"/><joint/><geom size="0.1"/></body>
        </body>
      </body>`);
    const { mechanism, warnings } = mjcfMechanism(r);
    const joints = mechanism.children.filter((c) => c instanceof Joint).map((c) => c.localName);
    expect(joints).toEqual(['torso_free', 'hip_x_1', 'leg_joint1', 'leg_joint2', '_2knee', 'body3_joint1']);
    expect(warnings).toContain('joint hip-x.1 is the component hip_x_1');
  });
});

describe('colours for the viewer', () => {
  it("a geom's rgba, else its material's (the material's class defaults apply); the body draws each of its solid geoms", () => {
    const r = parseMjcf(
      `<mujoco><default><default class="m"><material rgba="0 1 0 1"/></default></default>
      <asset><material name="red" rgba="1 0 0 1"/><material name="green" class="m"/></asset>
      <worldbody><body name="a"><geom size="0.1" material="red"/><geom size="0.1" material="green"/><geom size="0.1" material="red" rgba="0 0 1 1"/></body></worldbody></mujoco>`,
      't.xml',
    );
    expect(r.bodies[0].geoms.map((g) => g.rgba)).toEqual([
      [1, 0, 0, 1],
      [0, 1, 0, 1],
      [0, 0, 1, 1],
    ]);
    const body = mjcfMechanism(r).mechanism.children.find((c) => c.localName === 'a') as unknown as { shapes: { color: string }[] };
    expect(body.shapes.map((g) => g.color)).toEqual(['#ff0000', '#00ff00', '#0000ff']);
  });
});
