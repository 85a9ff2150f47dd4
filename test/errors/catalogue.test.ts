// The error catalogue: each bad input users may give, the exact message they
// see on stderr and the exit code (0 ok, 1 model error, 2 usage error). The
// CLI runs in-process through main(argv, io); two entries run bin/kron.mjs
// as a process to show that the exit code reaches the shell. (Over-constrained
// kinematic loops and Newton failures at singular positions are
// catalogued with the loop joints.)
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.ts';
import { kron, kronProcess, lines } from './catalogue-harness.ts';

describe('error catalogue: model files and parameters', () => {
  it('unknown model file (exit 2, as a process)', () => {
    const r = kronProcess('simulate', 'mechanisms/nope.ts');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      lines(
        'UsageError: model file mechanisms/nope.ts not found',
        '  hint: give the path of a model module or a URDF robot, e.g. mechanisms/drivetrain.ts or mechanisms/puma560.urdf',
      ),
    );
  });
  it('model module with no default export (exit 1)', async () => {
    const r = await kron('compile', 'test/cli/fixtures/no-default.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: model module test/cli/fixtures/no-default.ts has no default export that builds a model',
        '  hint: export default function build(p) { const m = new Model("name"); ...; return m; }',
      ),
    );
  });
  it('--set of a parameter that does not exist (exit 1), with the nearest name', async () => {
    const r = await kron('compile', 'mechanisms/drivetrain.ts', '--set', 's9.J=1');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: no parameter named s9.J',
        '  variables: s9.J',
        '  hint: did you mean s1.J? the module declares J1, J2, i, tau, w0; the model has drive.tau, s1.J, g.i, s2.J',
      ),
    );
  });
});

describe('error catalogue: mechanisms', () => {
  it('unconnected frame (exit 1): names the body and its frame, not 24 equations', async () => {
    const r = await kron('compile', 'test/errors/fixtures/unconnected.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: link is not connected to the world: link.frame_a has no path of connections and joints to world.frame_b',
        '  component: link',
        '  hint: connect link.frame_a (e.g. mech.connect(someJoint.frame_b, link.frame_a))',
      ),
    );
  });
  it('body with negative mass (exit 1): from the module parameter and from --set on the body', async () => {
    const r = await kron('compile', 'mechanisms/pendulum.ts', '--set', 'm=-1');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(lines('ModelError: body link: mass -1 is not a finite number >= 0', '  component: link', '  hint: give a mass in kg, 0 or more'));
    const s = await kron('compile', 'mechanisms/pendulum.ts', '--set', 'link.m=-1');
    expect(s.code).toBe(1);
    expect(s.stderr).toBe(
      lines(
        'ModelError: body link: mass -1 is not a finite number >= 0',
        '  component: link',
        '  hint: give a mass in kg, 0 or more (check the --set values of link.m and link.I)',
      ),
    );
  });
  it('inertia that is not positive semi-definite (exit 1)', async () => {
    const r = await kron('compile', 'mechanisms/pendulum.ts', '--set', 'link.I[1][2]=1');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: body link: inertia (Ixx 0.001, Iyy 0.01, Izz 0.01, Ixy 1) is not positive semi-definite: principal moments -0.99451, 0.01, 1.00551',
        '  component: link',
        '  hint: the inertia tensor about the centre of mass must be positive semi-definite (check the --set values of link.m and link.I)',
      ),
    );
  });
  it('inertia that violates the triangle inequality (exit 1)', async () => {
    const r = await kron('compile', 'mechanisms/pendulum.ts', '--set', 'link.I[1][1]=0.5');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: body link: inertia (Ixx 0.5, Iyy 0.01, Izz 0.01) violates the triangle inequality: principal moments 0.01, 0.01, 0.5 (0.01 + 0.01 < 0.5)',
        '  component: link',
        '  hint: the principal moments A <= B <= C of a rigid body satisfy A + B >= C (check the --set values of link.m and link.I)',
      ),
    );
  });
  it('a massless body is fine where the mass matrix stays regular: PUMA 560 link 1 (exit 0)', async () => {
    for (const file of ['mechanisms/puma560.ts', 'mechanisms/puma560.urdf']) {
      const r = await kron('simulate', file, '--stop', '0.01', '--signals', 'der(j1.qd)');
      expect(r.code, file).toBe(0);
      expect(r.stderr, file).toBe('');
      expect(r.stdout.trim().split('\n')[1].split(',').map(Number).every(Number.isFinite)).toBe(true);
    }
  });
  it('zero-length joint axis (exit 1)', async () => {
    const r = await kron('compile', 'test/errors/fixtures/axis.ts', '--set', 'az=0');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: axis [0, 0, 0] of j1 has zero length',
        '  component: j1',
        '  hint: give a non-zero axis direction in frame_a coordinates, e.g. [0, 0, 1]',
      ),
    );
  });
});

describe('error catalogue: joint limits and friction (exit 1)', () => {
  const cases: [string, string[], string[]][] = [
    [
      'lower limit above the upper one (module parameters)',
      ['--set', 'lower=1', '--set', 'upper=0'],
      [
        'ModelError: joint j1: lower limit 1 is above the upper limit 0',
        '  component: j1',
        '  variables: j1.limit_lower',
        '  hint: give limits: [lower, upper] with lower <= upper',
      ],
    ],
    [
      'negative friction (module parameter)',
      ['--set', 'friction=-1'],
      [
        'ModelError: joint j1: friction -1 is not a finite number >= 0',
        '  component: j1',
        '  variables: j1.friction',
        '  hint: give a friction level in N m (N), 0 or more',
      ],
    ],
    [
      'lower limit above the upper one (--set on the joint)',
      ['--set', 'j1.limit_lower=2'],
      [
        'ModelError: joint j1: lower limit 2 is above the upper limit 1',
        '  component: j1',
        '  variables: j1.limit_lower',
        '  hint: give limits: [lower, upper] with lower <= upper (check the --set values)',
      ],
    ],
    [
      'negative friction (--set on the joint)',
      ['--set', 'j1.friction=-0.5'],
      [
        'ModelError: joint j1: friction -0.5 is not a finite number >= 0',
        '  component: j1',
        '  variables: j1.friction',
        '  hint: give a friction level in N m (N), 0 or more (check the --set values)',
      ],
    ],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const r = await kron('compile', 'test/errors/fixtures/limits.ts', ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(lines(...message));
    });
  }
});

describe('error catalogue: kinematic loops', () => {
  it('an over-constrained loop: a box on two parallel guides (exit 1)', async () => {
    const r = await kron('compile', 'test/errors/fixtures/uncut-loop.ts');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      lines(
        'ModelError: the kinematic loop (p2, p1) cut at p2 has 5 constraints, but its tree joints have only 1 coordinate it may determine',
        '  component: p2',
        '  hint: the loop is over-constrained or too many of its joints are states: free a joint marked state: true, or cut the loop with a joint that constrains less (available: p1 (1))',
      ),
    );
  });
  it('Newton failure: a four-bar whose links cannot close stops at time 0 with the residual and the joints (exit 1)', async () => {
    const r = await kron('simulate', 'mechanisms/fourbar-planar.ts', '--set', 'b=0.1', '--set', 'c=0.2', '--stop', '0.1');
    expect(r.code).toBe(1);
    const [first, , hint] = r.stderr.split('\n');
    // the residual is where the iteration stopped, not a property of the linkage: only its size is asserted
    const residual =
      /^SimulationError: Newton iteration did not converge at time 0 in the algebraic loop of 10 unknowns \(tearing variables j2\.q, j4\.q; kinematic loop cut at j3 with joints j2, j1, j4\); residual (\S+)$/.exec(
        first,
      );
    expect(residual, first).not.toBeNull();
    expect(Number(residual![1])).toBeGreaterThan(1e-2);
    expect(hint).toMatch(/^ {2}hint: the loop may not close with these dimensions/);
  });
  it('dead point: a four-bar started 3e-15 rad from its change point stops at time 0, naming the loop (exit 1)', async () => {
    const r = await kron(
      'simulate',
      'mechanisms/fourbar-planar.ts',
      ...['a=0.2', 'd=0.6', 'b=0.4', 'c=0.4', 'theta2=3.14159265358979', 'w=4'].flatMap((p) => ['--set', p]),
      '--stop',
      '0.004',
    );
    expect(r.code).toBe(1);
    // the condition estimate depends on where Newton lands within 1e-12 of the change point: its order is asserted
    const [first, ...rest] = r.stderr.split('\n');
    const estimate =
      /^SimulationError: the kinematic loop cut at j3 \(joints j2, j1, j4\) is at a singular position at time 0: its constraint Jacobian is ill-conditioned \(condition estimate (\S+)\), a dead point or change point of the linkage$/.exec(
        first,
      );
    expect(estimate, first).not.toBeNull();
    expect(Number(estimate![1])).toBeGreaterThan(1e5);
    expect(rest.join('\n')).toBe(
      lines(
        '  variables: j2.q, j4.q',
        '  hint: here the joints the loop determines cannot follow the state joints (their speeds grow without bound); start away from the dead point, choose state joints that drive the linkage through it (mark joints { state: true }), or change the dimensions',
      ),
    );
  });
  it('assembly branch: a step too large for the loop to follow stops (exit 1)', async () => {
    // --unsafe-step: at h = 0.05 RK4's stability check would stop it first (see 'RK4 beyond its stability region')
    const r = await kron('simulate', 'mechanisms/fourbar-planar.ts', '--set', 'w=30', '--step', '0.05', '--stop', '1', '--unsafe-step');
    expect(r.code).toBe(1);
    const [first, , hint] = r.stderr.split('\n').filter((l) => !l.startsWith('warning: --unsafe-step'));
    expect(first).toBe(
      'SimulationError: the kinematic loop cut at j3 (joints j2, j1, j4) left its assembly branch between time 0.025 and 0.05: the determinant of its constraint Jacobian changed sign, so the motion passed a singular position (a change point or dead point, where assembly branches meet) or the step was too large and Newton landed on the mirror assembly',
    );
    expect(hint).toBe(
      '  hint: reduce --step (or use --integrator adaptive); if the error stays at the same time, the loop is at a singular position: past a change point (a loop that folds flat, e.g. a four-bar with a + d = b + c) the motion may go on along either branch and the equations do not say which, so no step size passes it; a dead point of these state joints others may drive through (mark joints { state: true }); else start away from it, stop before it, or change the dimensions',
    );
  });
});

describe('error catalogue: simulation', () => {
  it('RK4 beyond its stability region (exit 1): the mode, its variables, the step it needs', async () => {
    const r = await kron('simulate', 'test/sim/fixtures/arm3.ts', '--stop', '3', '--integrator', 'rk4');
    expect(r.code).toBe(1);
    const [first, variables, hint] = r.stderr.split('\n');
    expect(first).toMatch(
      /^SimulationError: fixed-step RK4 at step 0\.001 is unstable for this model at time 0: the mode with eigenvalue -3171 1\/s \(j3\.qd, j2\.qd, j1\.qd\) decays in the model but grows 1\.75-fold per step in the numbers; RK4 keeps it below a step of 0\.000878$/,
    );
    expect(variables).toBe('  variables: j3.qd, j2.qd, j1.qd');
    expect(hint).toBe(
      '  hint: use --integrator radau (stiff, error-controlled), or a smaller step (--step 0.0005); --unsafe-step runs anyway, with an answer that is wrong',
    );
  });

  it('--step <= 0 (exit 2)', async () => {
    for (const step of ['0', '-1e-3']) {
      const r = await kron('simulate', 'mechanisms/drivetrain.ts', '--step', step);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(lines(`UsageError: step ${Number(step)} must be a finite number > 0`, '  hint: e.g. --step 1e-3'));
    }
  });
  it('--stop < 0 (exit 2)', async () => {
    const r = await kron('simulate', 'mechanisms/drivetrain.ts', '--stop', '-1');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(lines('UsageError: stop time -1 must be a finite number >= 0', '  hint: e.g. --stop 2'));
  });
  it('unknown --integrator, --rtol with the fixed-step rk4, a tolerance <= 0, --unsafe-step with radau or auto (exit 2)', async () => {
    const cases = [
      [
        ['--integrator', 'euler'],
        'UsageError: --integrator must be rk4, adaptive, radau or auto, got "euler"',
        '  hint: e.g. --integrator adaptive --rtol 1e-8',
      ],
      [
        ['--integrator', 'rk4', '--rtol', '1e-8'],
        'UsageError: --rtol applies to the error-controlled integrators (adaptive, radau; auto where it goes on with radau)',
        '  hint: add --integrator adaptive, or --integrator radau for a stiff model',
      ],
      [
        ['--integrator', 'auto', '--unsafe-step'],
        'UsageError: --unsafe-step applies to the rk4 integrator',
        "  hint: the auto integrator goes on with radau where RK4's step is unstable: drop --unsafe-step",
      ],
      [['--integrator', 'adaptive', '--atol', '0'], 'UsageError: atol 0 must be a finite number > 0', '  hint: e.g. --atol 1e-8'],
      [
        ['--integrator', 'radau', '--unsafe-step'],
        'UsageError: --unsafe-step applies to the rk4 integrator',
        '  hint: the radau integrator controls its own steps: drop --unsafe-step',
      ],
    ] as const;
    for (const [flags, message, hint] of cases) {
      const r = await kron('simulate', 'mechanisms/drivetrain.ts', ...flags);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(lines(message, hint));
    }
  });
  it('NaN during simulation: stops, names the time and the first non-finite variable (exit 1, as a process)', () => {
    const r = kronProcess('simulate', 'test/errors/fixtures/blowup.ts', '--stop', '2', '--step', '0.25');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      lines(
        'SimulationError: a non-finite value appeared in the step from time 0.75, at time 1: first non-finite variable g (g = 1/(1 - x))',
        '  variables: g',
        '  hint: a division by zero or a value growing without bound: check parameters and start values, or reduce --step',
      ),
    );
  });
  it('NaN during an adaptive simulation: the same report (exit 1)', async () => {
    const r = await kron('simulate', 'test/errors/fixtures/blowup.ts', '--stop', '2', '--integrator', 'adaptive');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^SimulationError: a non-finite value appeared in the step from time 0\.9\d*, at time 1: first non-finite variable g \(g = 1\/\(1 - x\)\)\n/,
    );
  });
});

describe('error catalogue: the command line (exit 2)', () => {
  const commands = Object.keys(COMMANDS).join(', '); // compile, simulate, ...
  const cases: [string[], string][] = [
    [[], `UsageError: no command given\n  hint: commands: ${commands}`],
    [['fly'], `UsageError: unknown command "fly"\n  hint: commands: ${commands}; kron --help lists them`],
    [['simulate'], 'UsageError: kron simulate needs a model file\n  hint: kron simulate mechanisms/drivetrain.ts; kron simulate --help'],
    [['compile', 'mechanisms/drivetrain.ts', '--frobnicate'], "UsageError: Unknown option '--frobnicate'\n  hint: kron compile --help lists the options"],
    [
      ['compile', 'mechanisms/drivetrain.ts', '--mode', 'fast'],
      'UsageError: --mode must be torn, relaxed or auto, got "fast"\n  hint: auto compiles both forms and keeps the one with fewer operations',
    ],
    [['compile', 'mechanisms/drivetrain.ts', '--set', 'i'], 'UsageError: --set expects name=value, got "i"\n  hint: e.g. --set n=16'],
    [['compile', 'mechanisms/drivetrain.ts', '--set', 'i=abc'], 'UsageError: --set i expects a number, got "abc"'],
    [
      ['compile', 'mechanisms/drivetrain.ts', '--gravity', '0,0,-1'],
      'UsageError: --gravity applies to mechanisms (models built with Mechanism, which have a world)',
    ],
    [['compile', 'mechanisms/pendulum.ts', '--gravity', '0,-1'], 'UsageError: --gravity expects gx,gy,gz, got "0,-1"\n  hint: e.g. --gravity 0,0,-9.80665'],
  ];
  for (const [argv, message] of cases) {
    it(`kron ${argv.join(' ')}`, async () => {
      const r = await kron(...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(message + '\n');
    });
  }
});

describe('error catalogue: inverse dynamics', () => {
  it('kron compile --inverse of a model without generalized coordinates (exit 2)', async () => {
    const r = await kron('compile', 'mechanisms/drivetrain.ts', '--inverse');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      lines(
        'UsageError: model drivetrain declares no generalized coordinates, so it has no inverse problem',
        '  hint: inverse dynamics needs a Mechanism with state joints (or a Model whose generalizedCoordinates() names q, qd, qdd and tau)',
      ),
    );
  });
});

describe('error catalogue: sweeps (exit 2)', () => {
  const cases: [string[], string[]][] = [
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'link.m=1:2'],
      [
        'UsageError: --grid "link.m=1:2": a range is a:b:n (n points from a to b)',
        "  hint: e.g. --grid 'link2.m=1:5:9' (9 points from 1 to 5) or --grid 'j1.q=-1,0,1'",
      ],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--samples', '3', '--dist', 'link.m=gauss(1,2)'],
      [
        'UsageError: --dist "link.m=gauss(1,2)": expected normal(mean,sd) or uniform(low,high)',
        "  hint: e.g. --dist 'link2.m=normal(17.4,0.5)' or --dist 'j2.q=uniform(-0.5,0.5)'",
      ],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.Q=1,2'],
      [
        'UsageError: a sweep names j1.Q, which is neither a parameter nor a variable of the model',
        '  variables: j1.Q',
        "  hint: sweep a model parameter (link2.m) or a state's start value (j1.q); j1 has j1.q, j1.qd; a model module's own parameters (n=16) change its structure: give them with --set",
      ],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=1', '--samples', '2', '--dist', 'j1.qd=normal(0,1)'],
      [
        'UsageError: a sweep is a --grid or a Monte Carlo (--samples with --dist), not both',
        "  hint: run two sweeps, e.g. one with --grid 'j1.q=-1,0,1', one with --samples 100 --dist 'link2.m=normal(17.4,0.5)'",
      ],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=1', '--queue', 'http://x'],
      [
        'UsageError: --queue expects a redis:// or rediss:// URL, got "http://x"',
        '  hint: e.g. --queue redis://127.0.0.1:6379, or rediss://kron@redis.example.org:6380 with TLS',
      ],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=1', '--queue', 'redis://kron:secret@127.0.0.1:1', '--tls-ca', 'ca.crt'],
      ['UsageError: --tls-ca applies to a rediss:// URL (TLS), and --queue is redis://kron:***@127.0.0.1:1', '  hint: write rediss://127.0.0.1:1'],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=1', '--queue', 'redis://127.0.0.1:1', '--key-file', '/nonexistent/queue.key'],
      [
        'UsageError: --key-file /nonexistent/queue.key cannot be read (ENOENT)',
        '  hint: make one with: openssl rand -hex 32 > queue.key; chmod 600 queue.key; give the same key to the producer and every worker (--key-file queue.key, or the environment variable KRON_QUEUE_KEY)',
      ],
    ],
    [
      ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=1', '--key-file', 'queue.key'],
      ['UsageError: --key-file applies to a queued sweep', '  hint: add --queue redis://host:port, or leave it out'],
    ],
    [
      ['worker', '--queue', 'redis://127.0.0.1:1', '--metric-dir', '/nonexistent'],
      ['UsageError: --metric-dir /nonexistent is not a folder', "  hint: give the folder that holds the sweeps' --metric modules"],
    ],
    [
      ['worker'],
      [
        'UsageError: kron worker needs --queue redis://host:port',
        '  hint: the Redis that `kron sweep --queue` enqueues to, e.g. kron worker --queue redis://127.0.0.1:6379',
      ],
    ],
  ];
  for (const [argv, message] of cases) {
    it(`kron ${argv.join(' ')}`, async () => {
      const r = await kron(...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(message.join('\n') + '\n');
    });
  }
});
