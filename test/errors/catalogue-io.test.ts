// The error catalogue, continued (catalogue.test.ts): controller modules,
// malformed URDF and the files the readers refuse — the exact message on
// stderr and the exit code.
import { describe, expect, it } from 'vitest';
import { fileIn, joint, kron, kronProcess, lines, urdf } from './catalogue-harness.ts';

describe('error catalogue: controller modules (--controller)', () => {
  const run = (fixture: string) => kron('simulate', 'mechanisms/pendulum.ts', '--stop', '1', '--step', '0.1', '--controller', fixture);
  it('a controller file that does not exist (exit 2)', async () => {
    const r = await run('test/errors/fixtures/nope.ts');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      lines(
        'UsageError: controller file test/errors/fixtures/nope.ts not found',
        '  hint: give the path of a controller module, e.g. --controller mechanisms/controllers/puma560-pd.ts',
      ),
    );
  });
  it('a controller module with no default export (exit 1)', async () => {
    const r = await run('test/errors/fixtures/controller-no-default.ts');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      lines(
        'ModelError: controller module test/errors/fixtures/controller-no-default.ts has no default export that is a controller function',
        '  component: test/errors/fixtures/controller-no-default.ts',
        '  hint: export default function controller(t, state, inputs) { inputs["j1.tau"] = -100 * state["j1.q"] - 20 * state["j1.qd"]; }',
      ),
    );
  });
  it('a controller that throws: its message, where in its file, the time of the RK4 stage (exit 1)', async () => {
    const r = await run('test/errors/fixtures/controller-throws.ts');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      lines(
        'SimulationError: controller test/errors/fixtures/controller-throws.ts failed at time 0.25: no gain scheduled beyond t = 0.2 (thrown at controller (test/errors/fixtures/controller-throws.ts:5:22))',
        '  component: test/errors/fixtures/controller-throws.ts',
        '  hint: the error is the controller\'s own; it is called as controller(t, state, inputs) at every evaluation of the derivatives (each RK4 stage), state by state name (e.g. state["j1.q"])',
      ),
    );
  });
  it('a controller that sets an input the model does not have (exit 1)', async () => {
    const r = await run('test/errors/fixtures/controller-unknown-input.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'SimulationError: controller test/errors/fixtures/controller-unknown-input.ts sets j2.tau, which is not an input of the model',
        '  component: test/errors/fixtures/controller-unknown-input.ts',
        '  variables: j2.tau',
        '  hint: inputs: j1.tau',
      ),
    );
  });
  it('a controller that sets an input to NaN, from a misspelt state name (exit 1)', async () => {
    const r = await run('test/errors/fixtures/controller-nan.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'SimulationError: controller test/errors/fixtures/controller-nan.ts set input j1.tau to NaN at time 0',
        '  component: test/errors/fixtures/controller-nan.ts',
        '  variables: j1.tau',
        '  hint: set inputs to finite numbers; state[name] is undefined for a name that is not a state (states: j1.q, j1.qd)',
      ),
    );
  });
  it('a controller that drives a torque the model already defines by an equation (PD in the model; exit 1)', async () => {
    const r = await kron('simulate', 'mechanisms/puma560-pd.ts', '--stop', '0.01', '--controller', 'mechanisms/controllers/puma560-pd.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'SimulationError: controller mechanisms/controllers/puma560-pd.ts sets j1.tau, which is not an input of the model',
        '  component: mechanisms/controllers/puma560-pd.ts',
        '  variables: j1.tau',
        "  hint: j1.tau is computed by the model's equations (an equation defines it, e.g. a controller in the model): drive a model without it; inputs: (none)",
      ),
    );
  });
  it('two controllers in the model on one joint: structurally singular, naming both laws (exit 1)', async () => {
    const r = await kron('compile', 'test/errors/fixtures/two-pd.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'StructuralError: structurally singular: 39 equations, 38 unknowns, at most 38 can be matched',
        '  variables: pd.e, pd_again.e, j1.tau',
        '  equations:',
        '    over-determined: pd: pd.e = pd.ref - j1.q',
        '    over-determined: pd: pd.tau = -j1.qd + 10*pd.e',
        '    over-determined: pd_again: pd_again.e = -j1.q + pd_again.ref',
        '    over-determined: pd_again: pd_again.tau = 20*pd_again.e - 2*j1.qd',
        '  hint: 4 equations determine only 3 unknowns: remove a redundant equation or constraint, or make a known quantity unknown. The input j1.tau can be defined by one equation each (one controller per joint).',
      ),
    );
  });
});

describe('error catalogue: malformed URDF (exit 1, naming the element)', () => {
  const cases: [string, string, string, string][] = [
    [
      'missing parent link',
      joint('j1', 'revolute', 'bse', 'a'),
      'ModelError: URDF bad.urdf: <joint name="j1">: parent link "bse" is not defined',
      '  hint: add <link name="bse"> or correct the name',
    ],
    [
      'missing child link',
      joint('j1', 'revolute', 'base', 'arm'),
      'ModelError: URDF bad.urdf: <joint name="j1">: child link "arm" is not defined',
      '  hint: add <link name="arm"> or correct the name',
    ],
    [
      'no <parent> element',
      '<joint name="j1" type="revolute"><child link="a"/></joint>',
      'ModelError: URDF bad.urdf: <joint name="j1">: has no <parent link="...">',
      '  hint: name the parent link of the joint: <parent link="..."/>',
    ],
    [
      'unknown joint type',
      joint('j1', 'hinge', 'base', 'a'),
      'ModelError: URDF bad.urdf: <joint name="j1">: unknown joint type "hinge"',
      '  hint: supported types: revolute, continuous, prismatic, fixed, floating, planar',
    ],
    [
      'zero-length axis',
      joint('j1', 'revolute', 'base', 'a', '<axis xyz="0 0 0"/>'),
      'ModelError: URDF bad.urdf: <joint name="j1"> <axis>: axis xyz="0 0 0" has zero length',
      '  hint: give a non-zero direction in the child link frame, e.g. xyz="0 0 1"',
    ],
    [
      'joint limits with lower above upper',
      joint('j1', 'revolute', 'base', 'a', '<limit lower="1" upper="-1" effort="1" velocity="1"/>'),
      'ModelError: URDF bad.urdf: <joint name="j1"> <limit>: lower="1" is above upper="-1"',
      '  hint: give lower <= upper (rad, or m for a prismatic joint)',
    ],
    [
      'negative joint friction',
      joint('j1', 'revolute', 'base', 'a', '<dynamics friction="-0.2"/>'),
      'ModelError: URDF bad.urdf: <joint name="j1"> <dynamics>: friction -0.2 is negative',
      '  hint: give a friction >= 0 (N m, or N for a prismatic joint)',
    ],
    [
      'cycle (a link with two parents)',
      `<link name="b"/>${joint('j1', 'revolute', 'base', 'a')}${joint('j2', 'revolute', 'a', 'b')}${joint('j3', 'revolute', 'b', 'a')}`,
      'ModelError: URDF bad.urdf: <link name="a">: is the child of two joints, "j1" and "j3", which closes a kinematic loop',
      '  hint: URDF describes trees: every link but the root is the child of exactly one joint',
    ],
    [
      'cycle (detached from the root)',
      `<link name="b"/>${joint('j1', 'revolute', 'a', 'b')}${joint('j2', 'revolute', 'b', 'a')}`,
      'ModelError: URDF bad.urdf: <robot>: the joints form a cycle: a -> b -> a',
      '  hint: URDF describes trees: every link must be reachable from the root link',
    ],
    [
      'several roots',
      '',
      'ModelError: URDF bad.urdf: <robot>: there are 2 root links (links that are the child of no joint): "base", "a"',
      '  hint: connect every link but one to a parent with a <joint>',
    ],
    [
      'not well-formed XML',
      '<joint name="j1">',
      "ModelError: URDF bad.urdf: not well-formed XML at line 6, column 1: Expected closing tag 'joint' (opened in line 5, col 3) instead of closing tag 'robot'.",
      '  hint: check the tags around that line',
    ],
  ];
  for (const [what, body, message, hint] of cases) {
    it(what, async () => {
      const r = await kron('compile', urdf('bad.urdf', body));
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(lines(message, hint));
    });
  }
  const inertial = (mass: string, inertia: string) => `<inertial><mass value="${mass}"/><inertia ${inertia}/></inertial>`;
  const link: [string, string, string, string][] = [
    [
      'negative mass',
      inertial('-2', 'ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial>: mass -2 is not a finite number >= 0',
      '  hint: give a mass in kg, 0 or more',
    ],
    [
      'inertia not positive semi-definite',
      inertial('2', 'ixx="1" iyy="1" izz="1" ixy="2" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial>: inertia (Ixx 1, Iyy 1, Izz 1, Ixy 2) is not positive semi-definite: principal moments -1, 1, 3',
      '  hint: the inertia tensor about the centre of mass must be positive semi-definite',
    ],
    [
      'inertia violating the triangle inequality',
      inertial('2', 'ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial>: inertia (Ixx 1, Iyy 1, Izz 3) violates the triangle inequality: principal moments 1, 1, 3 (1 + 1 < 3)',
      '  hint: the principal moments A <= B <= C of a rigid body satisfy A + B >= C',
    ],
    [
      'principal moments violating the triangle inequality, though the diagonal does not',
      inertial('1', 'ixx="1" iyy="1" izz="0.2" ixy="0.9" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial>: inertia (Ixx 1, Iyy 1, Izz 0.2, Ixy 0.9) violates the triangle inequality: principal moments 0.1, 0.2, 1.9 (0.1 + 0.2 < 1.9)',
      '  hint: the principal moments A <= B <= C of a rigid body satisfy A + B >= C',
    ],
    [
      'a number that is not one',
      inertial('heavy', 'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial> <mass>: value="heavy" is not a decimal number',
      '  hint: e.g. value="0"',
    ],
    [
      'a hexadecimal number',
      inertial('0x10', 'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial> <mass>: value="0x10" is not a decimal number',
      '  hint: e.g. value="0"',
    ],
    [
      'a number out of range',
      inertial('1e308', 'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial> <mass>: value="1e308" is out of range: Kron reads magnitudes up to 1e9',
      '  hint: URDF quantities are in SI units (m, kg, kg m^2, rad): check the units',
    ],
    [
      'missing products of inertia',
      inertial('1', 'ixx="1" iyy="1" izz="1"'),
      'ModelError: URDF bad.urdf: <link name="a"> <inertial> <inertia>: attributes ixy, ixz, iyz are missing',
      '  hint: URDF gives all six: <inertia ixx="..." iyy="..." izz="..." ixy="0" ixz="0" iyz="0"/>',
    ],
  ];
  for (const [what, a, message, hint] of link) {
    it(what, async () => {
      const r = await kron('compile', urdf('bad.urdf', joint('j1', 'revolute', 'base', 'a'), a));
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(lines(message, hint));
    });
  }
});

describe('error catalogue: files the readers refuse, through the shell (one message, no stack)', () => {
  const write = fileIn;
  const robot = (inside: string) => `<robot name="r"><link name="base">${inside}</link></robot>\n`;
  it('a URDF whose DOCTYPE declares entities, as in a billion-laughs file (exit 1)', () => {
    const dtd = '<!ENTITY l0 "lol">' + Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const r = kronProcess(
      'simulate',
      write('laughs.urdf', `<?xml version="1.0"?>\n<!DOCTYPE robot [${dtd}]>\n${robot('<visual><geometry><mesh filename="&l9;"/></geometry></visual>')}`),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      lines(
        'ModelError: URDF laughs.urdf: the DOCTYPE declares entities (&l0;), which Kron does not expand',
        '  hint: write the values in place (xacro can generate them) and remove the DOCTYPE',
      ),
    );
  });
  it('a URDF nested deeper than the XML reader goes (exit 1)', () => {
    const r = kronProcess('simulate', write('deep.urdf', robot('<a>'.repeat(200) + '</a>'.repeat(200))));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      lines(
        'ModelError: URDF deep.urdf: the XML reader refused it: Maximum nested tags exceeded',
        '  hint: Kron reads XML nested at most 100 elements deep, without DOCTYPE entities',
      ),
    );
  });
  it('a model module that imports a package that is not installed (exit 2)', () => {
    const r = kronProcess('simulate', 'test/errors/fixtures/missing-package.ts');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      lines(
        'UsageError: model module test/errors/fixtures/missing-package.ts imports the package "no-such-package", which is not installed',
        '  hint: install it (npm install no-such-package) or correct the name',
      ),
    );
  });
});
