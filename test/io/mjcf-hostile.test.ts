// Hostile MJCF: each a ModelError naming the file, line and element at fault,
// with a hint; never the parser's own exception, a NaN or a hang.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.ts';
import { parseMjcf } from '../../src/io/mjcf-parse.ts';

const body = (inner: string) => `<mujoco>\n<worldbody>\n  <body name="a">\n    ${inner}\n  </body>\n</worldbody>\n</mujoco>\n`;

function refusal(text: string, files: Record<string, string> = {}): ModelError {
  try {
    parseMjcf(text, 'robot.xml', { readFile: (f) => files[f] });
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    expect((e as ModelError).details.hint).toBeTruthy();
    return e as ModelError;
  }
  throw new Error('parseMjcf accepted it');
}

describe('hostile MJCF: typed errors naming the element and line', () => {
  it('malformed XML: the line and column of the mismatch', () => {
    expect(refusal('<mujoco>\n<worldbody>\n<body name="a">\n</worldbody>\n</mujoco>\n').message).toMatch(
      /^MJCF robot\.xml: not well-formed XML at line 4, column 1: Expected closing tag 'body'/,
    );
  });

  it('a missing include', () => {
    expect(refusal('<mujoco>\n  <include file="nothere.xml"/>\n</mujoco>').message).toBe(
      'MJCF robot.xml:2: <include>: the included file "nothere.xml" is not found',
    );
  });

  it('an include loop, named file by file', () => {
    const files = { 'b.xml': '<mujoco>\n  <include file="c.xml"/>\n</mujoco>', 'c.xml': '<mujoco>\n\n  <include file="b.xml"/>\n</mujoco>' };
    expect(refusal('<mujoco>\n  <include file="b.xml"/>\n</mujoco>', files).message).toBe(
      'MJCF c.xml:3: <include>: includes "b.xml", which is already being included: robot.xml -> b.xml -> c.xml -> b.xml',
    );
  });

  it('a class that does not exist', () => {
    expect(refusal(body('<joint class="nope"/>')).message).toBe('MJCF robot.xml:4: <joint>: class "nope" is not defined');
  });

  it('a negative mass', () => {
    expect(refusal(body('<joint/><inertial pos="0 0 0" mass="-1" diaginertia="1 1 1"/>')).message).toBe('MJCF robot.xml:4: <inertial>: mass -1 is negative');
  });

  it('a fullinertia that is not positive definite', () => {
    expect(refusal(body('<joint/><inertial pos="0 0 0" mass="1" fullinertia="1 1 1 2 0 0"/>')).message).toMatch(
      /^MJCF robot\.xml:4: <inertial>: fullinertia="1 1 1 2 0 0" is not positive definite: its least principal moment is -1$/,
    );
  });

  it('a joint axis of zero length', () => {
    expect(refusal(body('<joint name="j" axis="0 0 0"/><geom size="1"/>')).message).toBe('MJCF robot.xml:4: <joint name="j">: axis="0 0 0" has zero length');
  });

  // what the refusal costs in CPU time is a measurement, not a test: npm run bench:refusals
  it('10^4 nested bodies: refused at the first too deep, by line and name', () => {
    const n = 10_000;
    const text = `<mujoco><worldbody>${Array.from({ length: n }, (_, i) => `<body name="b${i}"><joint/>\n`).join('')}${'</body>'.repeat(n)}</worldbody></mujoco>`;
    expect(refusal(text).message).toBe('MJCF robot.xml:99: <body name="b98">: nested more than 100 elements deep');
  });

  it('numbers that are not numbers, a geom without size, a free joint below another body', () => {
    expect(refusal(body('<joint damping="fast"/>')).message).toBe('MJCF robot.xml:4: <joint>: damping="fast" is not 1 decimal number');
    expect(refusal(body('<geom type="box" size="0.1 0.2"/>')).message).toBe('MJCF robot.xml:4: <geom>: a box needs 3 positive sizes, got size="0.1 0.2 0"');
    expect(refusal(body('<body name="b"><freejoint/><geom size="1"/></body>')).message).toBe(
      'MJCF robot.xml:4: <body name="b">: has a free joint but is not a body of the world',
    );
  });
});
