// The help texts of kron compile and kron simulate, and the model flags
// that kron check, linearize and sweep share with them (docs/reference/cli.md
// is generated from these: npm run docs:cli).

export const MODEL_FLAGS = `model:
  <model.ts>         a model module (export default function build(p): Model), or
  <robot.urdf>       a URDF robot (root link fixed to the world; gravity 0,0,-9.80665;
                     meshes (STL, DAE, OBJ) found next to the file are drawn by the
                     viewer, others as placeholders)
  <robot.xml>        an MJCF (MuJoCo) robot: states are MuJoCo's qpos/qvel per joint
                     (j.q, j.qd; free j.r, j.Q, j.v, j.w); gravity from <option>

compile options:
  --mode torn|relaxed|auto  torn: loops torn from the residue() hints (M(q) qdd = h);
                     relaxed: relax() marks honoured too, loops eliminated in relaxed BLT order;
                     auto (default): the one with fewer operations per evaluation kept (both
                     compiled unless the torn form's solves alone cost more than the relaxed form)
  --no-cache         compile even if the compile cache holds this model (docs/guide/command-line.md, Compile cache)
  --set name=value   a parameter the model module declares (e.g. n=16), or a model
                     parameter by hierarchical name (e.g. s1.J=2, link2.m=20); repeatable
  --start name=value the start value of a state by hierarchical name (e.g. j1.q=0.5,
                     j1.qd=-1; URDF joints too), or a first guess of an unknown; repeatable
  --gravity gx,gy,gz the world's gravity of a mechanism (default 0,-9.80665,0 for model
                     modules, 0,0,-9.80665 for URDF)
  --floating         a URDF robot's root link on a free joint <root link>_free (states
                     r, Q, v, w as MuJoCo's freejoint): the robot moves in the world
  --keyframe name    an MJCF robot starts from its <keyframe> key of that name (an
                     unnamed key by its number): qpos, qvel and the actuators' ctrl
  --keep-parameters  keep parameters symbolic in the generated code (default: folded)
  --tear v[:e]       "variable tear" (tearing paper): add tearing variable v with the
                     residue equation matched to variable e (default e = v); "v:" adds
                     the variable only, ":e" the equation only; --untear removes them
  --emit out.js      write the generated code as a readable ES module
  --target js|wasm   js (default): the generated JavaScript; wasm: its straight-line
                     functions as WebAssembly, the rest (solves, Newton) JavaScript, on one
                     memory; the same values bit for bit (checked), 0.7-0.85x the time of the
                     relaxed form, slower for the torn form (docs/performance/benchmarks.md, WebAssembly target)
  --torn-substitution  torn nonlinear loops (not kinematic closures) try successive
                     substitution before Newton (tearing paper); stderr of simulate
                     gives sweeps per evaluation and Newton's fallbacks
  --relax-iterate    the relaxing iteration (implies --mode relaxed): a relaxed loop's
                     remainder (the nodal equations of a circuit) is solved by Gauss-Seidel
                     sweeps, warm-started from the last evaluation, not eliminated
  --iterate-tol r    converged when no iteration variable moves by more than
                     r * max(nominal, |value|) in a sweep (default 1e-10; implies --relax-iterate)
  --iterate-max-sweeps k
                     sweeps before the run fails naming the slowest variables (default 500)
  --iterate-omega w  successive over-relaxation factor in (0, 2) (default 1: Gauss-Seidel)
  --import-timeout s the time a model, controller or metric module may take to import, and a
                     model to build, in seconds (default 60; also KRON_IMPORT_TIMEOUT): an
                     endless loop or a top-level await that never ends is then an error naming it`;

export const COMPILE_HELP = `usage: kron compile <model.ts|robot.urdf> [options]

Compiles the model and prints the compile report: equations, states, algebraic
loops and how they were torn or relaxed, operations per evaluation.

${MODEL_FLAGS}
  --json             print the report as JSON (fields are only ever added)
  --inverse          compile inverse dynamics: the state joints' q, qd, qdd are inputs
                     and their forces tau (j1.tau, ...) the outputs; the report's ops
                     are those of one inverse-dynamics evaluation

examples:
  kron compile mechanisms/drivetrain.ts --json
  kron compile mechanisms/drivetrain.ts --mode relaxed --keep-parameters
  kron compile mechanisms/drivetrain.ts --set i=5 --emit /tmp/drivetrain.js
  kron compile mechanisms/chain.ts --set n=8 --mode relaxed
  kron compile mechanisms/puma560.urdf
  kron compile mechanisms/puma560.ts --inverse --json
`;

export const SIMULATE_HELP = `usage: kron simulate <model.ts|robot.urdf> [options]

Compiles the model and integrates it from t = 0 to --stop, sampling every
--interval; writes time and the chosen signals as CSV to stdout or --out.

${MODEL_FLAGS}

simulation options:
  --stop T           end time in s, >= 0 (default 1)
  --step h           auto, rk4: the step in s, > 0 (default 1e-3); adaptive, radau: the first step tried
  --interval dt      sampling interval in s, a multiple of --step (default: every step)
  --integrator auto|rk4|adaptive|radau
                     auto (default): rk4 at --step while that step is stable for the model,
                     radau from the first point where it is not (said on stderr; from the
                     start with --friction elasto-plastic); rk4:
                     fixed-step classical Runge-Kutta, an unstable step stops the run;
                     adaptive: Cash-Karp RK45 with error control, steps chosen between
                     samples; radau: implicit Radau IIA of order 5 with error control
                     (Hairer & Wanner's RADAU5), for stiff models (stiff springs, high gains)
  --rtol r, --atol a adaptive, radau (and auto once it uses radau): per-state error within
                     a + r |x| (default 1e-6, 1e-9)
  --unsafe-step      rk4: run even where the step is beyond RK4's stability region for a
                     mode of the model (checked at the start and every 1000 steps; without
                     it such a run stops with an error naming the mode and a step that works)
  --min-event-interval s, --zeno-count n
                     models with events (when(), hard joint limits): events of one indicator
                     closer than s seconds n times in a row stop the run with an error, a
                     Zeno point (default 1e-6, 10); the run prints how often each event happened
  --stats            print what the integration cost on stderr: the integrator, its accepted and
                     rejected steps, evaluations of the derivatives, Jacobians and LUs
  --signals a,b,...  columns to record (default: the states), e.g. 'j1.q,der(j1.qd)'
  --out file         write to file: JSON ({ model, time, signals }) if it ends in .json,
                     CSV otherwise (default: CSV on stdout); written to a temporary file
                     renamed when complete: a failed or interrupted run, or a full disk,
                     leaves the previous file. CSV streams in constant memory
  --controller c.ts  a controller module: its default export (t, state, inputs) => void is
                     called at every evaluation of the derivatives (each RK4 stage) with the
                     time and the states by name, and sets inputs by name
  --call-timeout s   the time one call of the controller may take, in seconds (default 10;
                     also KRON_CALL_TIMEOUT)
  --contact          contact between the mechanism's collision geometry (bodies' collision,
                     Mechanism.ground): compliant normal force and regularised friction,
                     written into each body's contact_f[1..3], contact_t[1..3] inputs at every
                     evaluation (off by default: without it those inputs stay 0); per-pair
                     signals by --signals: contact.<geomA>__<geomB>.fn, .ft[1..2], .p[1..3],
                     .f[1..3] (0 while apart), contact.<pair>.* or contact.* for all pairs;
                     a JSON --out records contact.* (the viewer's force arrows) with the
                     states unless --signals is given (then only the signals it names)
  --self-contact     with --contact: a URDF robot's links touch each other, but adjacent ones
                     and links fixed together never do (an MJCF robot touches itself as its
                     file says)
  --friction law     with --contact: the contacts' friction law, regularised (default: Coulomb,
                     viscous below a slip of 1e-4 m/s, so a held contact creeps) or
                     elasto-plastic (a tangential spring to an anchor that slides at mu fn:
                     sticks without creep; the default integrator runs it with radau)
A simulation that runs longer than a second shows a progress bar on a terminal.

examples:
  kron simulate mechanisms/drivetrain.ts --stop 1 --out /tmp/d.csv
  kron simulate mechanisms/drivetrain.ts --set i=5 --signals 's2.w,der(s2.w)' --stop 0.01
  kron simulate mechanisms/puma560.ts --stop 2 --interval 0.01 --out /tmp/p.json
  kron simulate mechanisms/puma560.urdf --stop 2 --integrator adaptive --rtol 1e-8 --out /tmp/u.csv
  kron simulate test/sim/fixtures/arm3.ts --stop 3 --integrator radau --signals j1.q,pd1.tau
  kron simulate mechanisms/pendulum.ts --gravity 0,0,-9.80665 --signals 'j1.q,j1.qd'
  kron simulate mechanisms/puma560.urdf --start j2.q=0.5 --stop 1 --interval 0.01
  kron simulate mechanisms/puma560-pd.ts --stop 5 --signals 'pd2.e,j2.tau'
  kron simulate mechanisms/puma560.ts --controller mechanisms/controllers/puma560-pd.ts --stop 5
  kron simulate mechanisms/sphere-on-plane.ts --contact --stop 0.5 --step 1e-5 --integrator rk4 --interval 0.1 --signals 'j.v[1],j.w[3]'
  kron simulate mechanisms/sphere-on-plane.ts --contact --friction elasto-plastic --integrator radau --stop 0.5 --interval 0.1 --signals 'j.v[1]'
`;
