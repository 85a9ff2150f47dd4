// Bad URDF input gets a ModelError naming the element and the attribute:
// every numeric attribute the reader takes, given a number that is not
// decimal or out of range; the attributes URDF requires; the XML reader's
// limits (size, nesting, DOCTYPE entities). Good numbers in every decimal
// form still read, and a long chain still reads.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.ts';
import { MAX_MAGNITUDE, parseUrdf } from '../../src/io/urdf-parse.ts';
import { XML_LIMITS } from '../../src/io/urdf-xml.ts';

/** every numeric attribute the reader takes: its element as messages name it, its attribute, and a good value */
const SLOTS = {
  rgba: ['<material name="m"> <color>', 'rgba', '0 0.5 0.5 1'],
  inertialXyz: ['<link name="a"> <inertial> <origin>', 'xyz', '0 0 0.1'],
  inertialRpy: ['<link name="a"> <inertial> <origin>', 'rpy', '0 0 0'],
  mass: ['<link name="a"> <inertial> <mass>', 'value', '2'],
  ixx: ['<link name="a"> <inertial> <inertia>', 'ixx', '0.1'],
  iyy: ['<link name="a"> <inertial> <inertia>', 'iyy', '0.1'],
  izz: ['<link name="a"> <inertial> <inertia>', 'izz', '0.1'],
  ixy: ['<link name="a"> <inertial> <inertia>', 'ixy', '0'],
  ixz: ['<link name="a"> <inertial> <inertia>', 'ixz', '0'],
  iyz: ['<link name="a"> <inertial> <inertia>', 'iyz', '0'],
  visualXyz: ['<link name="a"> <visual> 1 <origin>', 'xyz', '0 0 0.2'],
  visualRpy: ['<link name="a"> <visual> 1 <origin>', 'rpy', '0 0 1.5'],
  boxSize: ['<link name="a"> <visual> 1 <geometry> <box>', 'size', '0.1 0.2 0.3'],
  visualRgba: ['<link name="a"> <visual> 1 <material> <color>', 'rgba', '1 0 0 1'],
  cylinderRadius: ['<link name="b"> <visual> 1 <geometry> <cylinder>', 'radius', '0.05'],
  cylinderLength: ['<link name="b"> <visual> 1 <geometry> <cylinder>', 'length', '0.4'],
  sphereRadius: ['<link name="c"> <visual> 1 <geometry> <sphere>', 'radius', '0.1'],
  jointXyz: ['<joint name="j"> <origin>', 'xyz', '0 0 1'],
  jointRpy: ['<joint name="j"> <origin>', 'rpy', '0 0.5 0'],
  axis: ['<joint name="j"> <axis>', 'xyz', '0 0 1'],
  damping: ['<joint name="j"> <dynamics>', 'damping', '0.1'],
  friction: ['<joint name="j"> <dynamics>', 'friction', '0'],
} as const;
type Slot = keyof typeof SLOTS;

/** a robot using every slot, with the good values unless given */
function robot(values: Partial<Record<Slot, string>> = {}): string {
  const v = (k: Slot) => values[k] ?? SLOTS[k][2];
  return `<?xml version="1.0"?>
<robot name="r">
  <material name="m"><color rgba="${v('rgba')}"/></material>
  <link name="base"/>
  <link name="a">
    <inertial><origin xyz="${v('inertialXyz')}" rpy="${v('inertialRpy')}"/><mass value="${v('mass')}"/>
      <inertia ixx="${v('ixx')}" iyy="${v('iyy')}" izz="${v('izz')}" ixy="${v('ixy')}" ixz="${v('ixz')}" iyz="${v('iyz')}"/></inertial>
    <visual><origin xyz="${v('visualXyz')}" rpy="${v('visualRpy')}"/><geometry><box size="${v('boxSize')}"/></geometry>
      <material><color rgba="${v('visualRgba')}"/></material></visual>
  </link>
  <link name="b"><visual><geometry><cylinder radius="${v('cylinderRadius')}" length="${v('cylinderLength')}"/></geometry></visual></link>
  <link name="c"><visual><geometry><sphere radius="${v('sphereRadius')}"/></geometry></visual></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="a"/><origin xyz="${v('jointXyz')}" rpy="${v('jointRpy')}"/>
    <axis xyz="${v('axis')}"/><dynamics damping="${v('damping')}" friction="${v('friction')}"/></joint>
  <joint name="jb" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="jc" type="fixed"><parent link="a"/><child link="c"/></joint>
</robot>
`;
}

/** the ModelError parseUrdf throws, or a failed expectation */
function refusal(text: string): ModelError {
  try {
    parseUrdf(text, 'bad.urdf');
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    expect((e as ModelError).message).not.toMatch(/\n/);
    return e as ModelError;
  }
  throw new Error('expected a ModelError, the URDF was read');
}

/** the good value of a slot with its middle word replaced */
const withWord = (slot: Slot, word: string) => {
  const words = SLOTS[slot][2].split(' ');
  words[words.length >> 1] = word;
  return words.join(' ');
};

describe('URDF numbers are decimal and in range, in every attribute read', () => {
  it('reads the robot with all good values', () => {
    const r = parseUrdf(robot());
    expect(r.links.map((l) => l.name)).toEqual(['base', 'a', 'b', 'c']);
    expect(r.links[1].inertial!.inertia).toEqual([0.1, 0.1, 0.1, 0, 0, 0]);
  });
  const notDecimal = ['0x10', '0b1', '0o7', '', '1_000', 'Infinity', '-Infinity', 'NaN', '1,5', '2kg', '--1', '1e', 'e5', '.'];
  for (const slot of Object.keys(SLOTS) as Slot[]) {
    const [where, attribute, good] = SLOTS[slot];
    const count = good.split(' ').length;
    it(`${where} ${attribute}: not decimal, out of range`, () => {
      for (const word of notDecimal) {
        const e = refusal(robot({ [slot]: withWord(slot, word) }));
        expect(e.message, word).toMatch(
          new RegExp(`^URDF bad\\.urdf: ${escape(where)}: ${attribute}=".*" is not ${count === 1 ? 'a decimal number' : `${count} decimal numbers`}$`),
        );
      }
      for (const word of ['1e308', '-1e308', '1e999', '1.000001e9', '-2e9']) {
        const e = refusal(robot({ [slot]: withWord(slot, word) }));
        expect(e.message, word).toBe(`URDF bad.urdf: ${where}: ${attribute}="${withWord(slot, word)}" is out of range: Kron reads magnitudes up to 1e9`);
        expect(e.details.hint).toBe('URDF quantities are in SI units (m, kg, kg m^2, rad): check the units');
      }
    });
  }
  it('reads every decimal form: sign, no integer part, no fraction, exponent, leading zeros, white space', () => {
    const r = parseUrdf(robot({ jointXyz: '-1.5e-3 +2 .5', jointRpy: '\n 3.\t1E3  007 ', mass: `${MAX_MAGNITUDE}`, damping: '-0e0', friction: '1e-400' }));
    expect(r.joints[0].origin).toEqual({ xyz: [-1.5e-3, 2, 0.5], rpy: [3, 1000, 7] });
    expect(r.links[1].inertial!.mass).toBe(1e9);
    expect(r.joints[0].damping).toBe(-0);
    expect(r.joints[0].friction).toBe(0);
  });
  it('quotes a long or multi-line value shortened, on one line', () => {
    const e = refusal(robot({ mass: '9'.repeat(1_000_000) }));
    expect(e.message).toBe(`URDF bad.urdf: <link name="a"> <inertial> <mass>: value="${'9'.repeat(40)}..." is out of range: Kron reads magnitudes up to 1e9`);
    expect(refusal(robot({ jointXyz: '0\n0\nx' })).message).toBe('URDF bad.urdf: <joint name="j"> <origin>: xyz="0 0 x" is not 3 decimal numbers');
  });
});

describe('URDF inertials as urdfdom requires them', () => {
  const inertial = (inside: string) => robot().replace(/<inertial>[^]*<\/inertial>/, `<inertial>${inside}</inertial>`);
  const six = 'ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"';
  it('a missing <mass>, mass value or <inertia> is an error naming the inertial', () => {
    expect(refusal(inertial(`<inertia ${six}/>`)).message).toBe('URDF bad.urdf: <link name="a"> <inertial>: has no <mass>');
    expect(refusal(inertial(`<mass/><inertia ${six}/>`)).message).toBe('URDF bad.urdf: <link name="a"> <inertial> <mass>: attribute value is missing');
    expect(refusal(inertial('<mass value="1"/>')).message).toBe('URDF bad.urdf: <link name="a"> <inertial>: has no <inertia>');
  });
  it('each of the six inertia attributes is required', () => {
    for (const k of ['ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz']) {
      const e = refusal(inertial(`<mass value="1"/><inertia ${six.replace(new RegExp(`${k}="[^"]*"`), '')}/>`));
      expect(e.message).toBe(`URDF bad.urdf: <link name="a"> <inertial> <inertia>: attribute ${k} is missing`);
      expect(e.details.hint).toBe('URDF gives all six: <inertia ixx="..." iyy="..." izz="..." ixy="0" ixz="0" iyz="0"/>');
    }
  });
  it('an inertia whose principal moments break the triangle inequality is refused, though its diagonal keeps it', () => {
    const e = refusal(robot({ ixx: '1', iyy: '1', izz: '0.2', ixy: '0.9' }));
    expect(e.message).toBe(
      'URDF bad.urdf: <link name="a"> <inertial>: inertia (Ixx 1, Iyy 1, Izz 0.2, Ixy 0.9) violates the triangle inequality: principal moments 0.1, 0.2, 1.9 (0.1 + 0.2 < 1.9)',
    );
  });
  it('a thin plate turned about two axes (A + B = C, rounded) is read', () => {
    // a 0.3 x 0.4 plate of 1 kg, turned by 0.7 rad about z and 0.4 rad about x, printed to 17 digits
    const [a, b, c] = [0.16 / 12, 0.09 / 12, 0.25 / 12];
    const [cz, sz, cx, sx] = [Math.cos(0.7), Math.sin(0.7), Math.cos(0.4), Math.sin(0.4)];
    const R = [
      [cz, -sz * cx, sz * sx],
      [sz, cz * cx, -cz * sx],
      [0, sx, cx],
    ];
    const e = (i: number, j: number) => R[i][0] * a * R[j][0] + R[i][1] * b * R[j][1] + R[i][2] * c * R[j][2];
    const I = [e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(0, 2), e(1, 2)].map((v) => v.toPrecision(17));
    const r = parseUrdf(robot({ ixx: I[0], iyy: I[1], izz: I[2], ixy: I[3], ixz: I[4], iyz: I[5] }));
    expect(r.links[1].inertial!.inertia.map(String)).toEqual(I.map((v) => String(Number(v))));
  });
});

describe('the XML reader within limits', () => {
  const doctype = (dtd: string, inside = '') => `<?xml version="1.0"?>\n<!DOCTYPE robot${dtd}>\n<robot name="r"><link name="base">${inside}</link></robot>`;
  it('refuses a file larger than the limit before parsing it', () => {
    const text = robot() + `<!--${' '.repeat(XML_LIMITS.maxChars)}-->`;
    expect(refusal(text).message).toBe(`URDF bad.urdf: the file has ${text.length} characters, more than the 10000000 Kron reads`);
  });
  it('refuses nesting deeper than the limit, reads nesting below it', () => {
    const nested = (n: number) => `<robot name="r"><link name="base"><gazebo>${'<x>'.repeat(n)}${'</x>'.repeat(n)}</gazebo></link></robot>`;
    expect(parseUrdf(nested(XML_LIMITS.maxDepth - 5)).root).toBe('base');
    for (const n of [XML_LIMITS.maxDepth, 100_000]) {
      const e = refusal(nested(n));
      expect(e.message).toBe('URDF bad.urdf: the XML reader refused it: Maximum nested tags exceeded');
      expect(e.details.hint).toBe('Kron reads XML nested at most 100 elements deep, without DOCTYPE entities');
    }
  });
  it('refuses DOCTYPE entities: declared, billion laughs, oversized, external', () => {
    const laughs = '<!ENTITY l0 "lol">' + Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const cases = [
      [
        ` [<!ENTITY r "0.1">]`,
        '<visual><geometry><sphere radius="&r;"/></geometry></visual>',
        'the DOCTYPE declares entities (&r;), which Kron does not expand',
      ],
      [` [${laughs}]`, '<visual><geometry><mesh filename="&l9;"/></geometry></visual>', 'the DOCTYPE declares entities (&l0;), which Kron does not expand'],
      [
        ` [<!ENTITY big "${'x'.repeat(20_000)}">]`,
        '<visual><geometry><mesh filename="&big;"/></geometry></visual>',
        'the XML reader refused it: Entity "big" size (20000) exceeds maximum allowed size (10000)',
      ],
      [
        ` [<!ENTITY e SYSTEM "file:///etc/passwd">]`,
        '<visual><geometry><mesh filename="&e;"/></geometry></visual>',
        'the XML reader refused it: External entities are not supported',
      ],
    ];
    for (const [dtd, inside, message] of cases) expect(refusal(doctype(dtd, inside)).message).toBe(`URDF bad.urdf: ${message}`);
  });
  it('reads a DOCTYPE without entities, the predefined entities and character references', () => {
    const r = parseUrdf(doctype('', '<visual><geometry><mesh filename="a&amp;b&lt;&#45;&#x41;&nbsp;.stl"/></geometry></visual>'));
    expect(r.links[0].visuals[0].shape).toEqual({ type: 'mesh', filename: 'a&b<-A&nbsp;.stl' });
  });
  it('reads a chain of 20000 links in order (the tree walk recursed, and overflowed the stack)', () => {
    const n = 20_000;
    const links = Array.from({ length: n + 1 }, (_, i) => `<link name="l${i}"/>`).join('');
    const joints = Array.from(
      { length: n },
      (_, i) => `<joint name="j${n - 1 - i}" type="revolute"><parent link="l${n - 1 - i}"/><child link="l${n - i}"/></joint>`,
    ).join('');
    const r = parseUrdf(`<robot name="r">${links}${joints}</robot>`);
    expect(r.joints.map((j) => j.name)).toEqual(Array.from({ length: n }, (_, i) => `j${i}`));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
