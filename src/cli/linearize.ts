// `kron linearize`: load and compile a model like `kron compile`, then print
// A, B (and C, D for --outputs) of its linearization at the operating point
// --at, and with --frame the geometric Jacobian of frames there.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { type Eigenvalue, type Linearization, type FrameJacobian, frameJacobian, linearize } from '../analysis/index.ts';
import { COMPILE_OPTIONS, MODEL_FLAGS, checkMode, compileFrom, negativeValues, number, parseSets } from './model-commands.ts';
import type { Io } from './io.ts';
import { shipped } from '../node/package.ts';

export const LINEARIZE_HELP = `usage: kron linearize <model.ts|robot.urdf> --at name=value,... [options]

Compiles the model and linearizes it at an operating point:
  x' = A x + B u,  y = C x + D u   (deviations from the point)
x are the states, u the inputs (joint torques tau, ...), y the --outputs.
Kinematic loops stay closed: the state joints' coordinates are the states and
the joints the loop determines follow through its constraints. Exact: symbolic
derivatives of the equations and the implicit function theorem, generated
tangent code (loops through their blocks' implicit tangents), or a tree's
analytical derivatives, --method.

${MODEL_FLAGS}

linearization options:
  --at name=value,...  the operating point: states (and input values) by name, e.g.
                     j1.q=0.1,j1.qd=0 or j1.tau=2; states not named take their start
                     values; repeatable
  --time t           time at the operating point (default 0)
  --inputs a,b,...   the inputs u, the columns of B and D (default: every input)
  --outputs a,b,...  output signals y, the rows of C and D, e.g. 'b1.frame_b.r[1],j4.q'
  --frame f          also the frame's geometric Jacobian [v; w] = J qd (6 x n, world
                     coordinates, columns the state coordinates); repeatable
  --method m         analytical: a revolute/prismatic tree's analytical derivatives
                     (generated recursions; no --outputs; the default where they apply);
                     generated: generated tangent code (made on this call, then kept;
                     pays from the second linearization of a compiled model);
                     symbolic: the flat equations differentiated symbolically;
                     default: analytical for a tree without --outputs, else symbolic on
                     the first call, as a one-off is cheapest
  --json             print the result as JSON ({ model, time, states, inputs, outputs, x,
                     u, y, dx, A, B, C, D, eigenvalues, compileMs, linearizeMs, frames })

examples:
  kron linearize mechanisms/pendulum.ts --at j1.q=-1.5707963267948966,j1.qd=0
  kron linearize mechanisms/fourbar.ts --at j1.q=0.3,j1.qd=0 --outputs j4.q --json
  kron linearize mechanisms/fourbar.ts --at j1.q=0.3,j1.qd=0 --outputs j4.q --method generated
  kron linearize mechanisms/doublependulum.ts --at j1.q=0.4,j2.q=-0.3 --frame j2.frame_b
  kron linearize mechanisms/puma560.urdf --at j2.q=0.5 --inputs j1.tau,j2.tau
`;

const OPTIONS = {
  ...COMPILE_OPTIONS,
  at: { type: 'string', multiple: true },
  time: { type: 'string' },
  inputs: { type: 'string' },
  outputs: { type: 'string' },
  frame: { type: 'string', multiple: true },
  method: { type: 'string' },
  json: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

const names = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

export async function runLinearize(args: string[], io: Io): Promise<void> {
  const { values, positionals } = parseArgs({ args: negativeValues(args, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file)
    throw new UsageError('kron linearize needs a model file', { hint: shipped('kron linearize mechanisms/pendulum.ts --at j1.q=0; kron linearize --help') });
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`, { hint: 'kron linearize takes one model file; kron linearize --help' });
  checkMode(values.mode);
  const at = parseSets(
    (values.at ?? []).flatMap((s) => s.split(',')).filter((s) => s.trim() !== ''),
    '--at',
    'j1.q=0.1,j1.qd=0',
  );
  const time = values.time === undefined ? undefined : number('--time', values.time);
  const method = values.method;
  if (method !== undefined && method !== 'analytical' && method !== 'generated' && method !== 'symbolic')
    throw new UsageError(`--method ${method}: not a method`, {
      hint: '--method analytical, generated or symbolic (default: analytical for a tree without --outputs, else symbolic on the first call)',
    });
  const { compiled } = await compileFrom(file, values, io);
  const result = linearize(compiled, { at, time, inputs: names(values.inputs), outputs: names(values.outputs), method });
  result.compileMs = compiled.report.compileMs;
  const frames = (values.frame ?? []).map((f) => frameJacobian(compiled, f, { at, time, method: method === 'analytical' ? undefined : method }));
  io.stdout.write(values.json ? JSON.stringify({ ...result, frames }, null, 2) + '\n' : formatLinearization(result, frames));
}

/** the result as a table per matrix, rows and columns named */
export function formatLinearization(l: Linearization, frames: readonly FrameJacobian[] = []): string {
  const point = (ns: string[], v: number[]) => ns.map((n, i) => `${n} = ${fmt(v[i])}`).join(', ') || '(none)';
  const lines = [
    `linearization of ${l.model} at t = ${l.time} (compile ${l.compileMs} ms, linearize ${l.linearizeMs} ms${l.method === 'generated' ? ', generated code' : l.method === 'analytical' ? ', analytical tree derivatives' : ''})`,
    `  states x: ${point(l.states, l.x)}`,
    `  inputs u: ${point(l.inputs, l.u)}`,
    `  x' = f(x, u) there: ${l.dx.map(fmt).join(', ') || '(none)'}`,
  ];
  if (l.outputs.length) lines.push(`  outputs y: ${point(l.outputs, l.y)}`);
  if (l.states.length === 0) lines.push('', 'no states: A, B and C are empty');
  else lines.push('', ...matrix('A', l.states, l.states, l.A));
  if (l.eigenvalues.length) lines.push(`eigenvalues of A: ${spectrum(l.eigenvalues)}`);
  if (l.inputs.length) lines.push('', ...matrix('B', l.states, l.inputs, l.B));
  if (l.outputs.length) lines.push('', ...matrix('C', l.outputs, l.states, l.C));
  if (l.outputs.length && l.inputs.length) lines.push('', ...matrix('D', l.outputs, l.inputs, l.D));
  for (const f of frames) {
    lines.push('', `frame ${f.frame}: r = ${f.r.map(fmt).join(', ')}`, ...matrix('J', ['v_x', 'v_y', 'v_z', 'w_x', 'w_y', 'w_z'], f.speeds, f.J));
  }
  return lines.join('\n') + '\n';
}

/** a complex pair once, as re ± im i */
const spectrum = (es: readonly Eigenvalue[]) =>
  es
    .filter((e) => e.im >= 0)
    .map((e) => (e.im === 0 ? fmt(e.re) : `${e.re === 0 ? '' : `${fmt(e.re)} `}±${e.re === 0 ? '' : ' '}${fmt(e.im)}i`))
    .join(', ');

const fmt = (v: number) => (v === 0 ? '0' : Math.abs(v) >= 1e-4 && Math.abs(v) < 1e6 ? String(Number(v.toPrecision(8))) : v.toExponential(6));

function matrix(name: string, rows: readonly string[], cols: readonly string[], M: readonly (readonly number[])[]): string[] {
  const cells = M.map((r) => r.map(fmt));
  const first = Math.max(name.length + 2, ...rows.map((r) => r.length));
  const width = cols.map((c, j) => Math.max(c.length, ...cells.map((r) => r[j].length)));
  return [
    `${`${name} =`.padEnd(first)}  ${cols.map((c, j) => c.padStart(width[j])).join('  ')}`,
    ...rows.map((r, i) => `${r.padEnd(first)}  ${cells[i].map((c, j) => c.padStart(width[j])).join('  ')}`),
  ];
}
