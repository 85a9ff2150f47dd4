// The kron command line: a table of commands, each with its own help, its
// own options and a handler that gets the arguments after the command name.
// Exit codes: 0 ok, 1 model error (the model or its run is wrong), 2 usage error.
import { KronError, UsageError } from '../errors.ts';
import { type Io, isParseArgsError, processIo } from './io.ts';
import { VERSION, shipped } from '../node/package.ts';
import { didYouMean } from '../suggest.ts';

export type { Io } from './io.ts';
// for bin/kron.mjs: the process's guard of the user's code, and why it ended early
export { explainEarlyExit, guardProcess } from '../node/user-code.ts';

export interface Command {
  /** one line for `kron --help` */
  summary: string;
  /**
   * the command's module, imported only when the command runs: what
   * `kron <command> --help` prints (usage, options, examples) and the handler,
   * which gets the arguments after the command name and throws a KronError
   * (UsageError: exit 2, others: exit 1). On demand because every run pays
   * for what it imports: the sweep's worker pool and Redis client, the
   * viewer's bundler and the benchmark's MuJoCo took `kron simulate` from
   * 0.05 s to 0.3 s of start-up CPU before it compiled anything.
   */
  load(): Promise<{ help: string; run(args: string[], io: Io): Promise<void> | void }>;
}

/** the commands; adding one is one entry */
export const COMMANDS: Record<string, Command> = {
  compile: {
    summary: 'compile a model and print its compile report',
    load: () => import('./model-commands.ts').then((m) => ({ help: m.COMPILE_HELP, run: m.runCompile })),
  },
  simulate: {
    summary: 'compile and simulate a model, write sampled signals as CSV or JSON',
    load: () => import('./model-commands.ts').then((m) => ({ help: m.SIMULATE_HELP, run: m.runSimulate })),
  },
  linearize: {
    summary: "linearize a model at an operating point: A, B, C, D of x' = A x + B u (loops closed)",
    load: () => import('./linearize.ts').then((m) => ({ help: m.LINEARIZE_HELP, run: m.runLinearize })),
  },
  sweep: {
    summary: 'run a model compiled once over a grid or Monte Carlo samples, on every core or through a Redis queue; one CSV row per run',
    load: () => import('./sweep.ts').then((m) => ({ help: m.SWEEP_HELP, run: m.runSweep })),
  },
  worker: {
    summary: 'consume the runs of queued sweeps (kron sweep --queue) from Redis, on every core',
    load: () => import('./worker.ts').then((m) => ({ help: m.WORKER_HELP, run: (args, io) => m.runWorker(args, io) })),
  },
  view: {
    summary: 'serve the 3D viewer on 127.0.0.1 for a JSON result, or a model module run live',
    load: () => import('./view.ts').then((m) => ({ help: m.VIEW_USAGE, run: (args) => m.view(args) })),
  },
  check: {
    summary: "check a model module before running it: its types against Kron's (file:line:col), then its build and compile",
    load: () => import('./check.ts').then((m) => ({ help: m.CHECK_HELP, run: m.runCheck })),
  },
  examples: {
    summary: 'list the example programs, or copy one into a folder to run and change',
    load: () => import('./examples.ts').then((m) => ({ help: m.EXAMPLES_HELP, run: m.runExamples })),
  },
  // the benchmark pulls in MuJoCo, a devDependency: its help is in a module of its own
  bench: {
    summary: 'benchmark torn against relaxed against MuJoCo (table, JSON, Markdown, log-log plot)',
    load: () => import('./bench-usage.ts').then((m) => ({ help: m.BENCH_USAGE, run: (args) => import('./bench.ts').then((b) => b.benchCommand(args)) })),
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const list = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `kron — an equation compiler for mechanisms

usage: kron <command> <model.ts|robot.urdf> [options]
       kron <command> --help     options and examples of one command
       kron --version            the version of Kron (also -v)

commands:
${list.join('\n')}

examples:
  kron compile mechanisms/drivetrain.ts --json
  kron simulate mechanisms/puma560.ts --stop 2 --out /tmp/p.csv
  kron simulate mechanisms/puma560.urdf --stop 2 --integrator adaptive --out /tmp/u.csv
  kron simulate mechanisms/fourbar.ts --stop 5 --out /tmp/f.json && kron view /tmp/f.json
  kron view mechanisms/pendulum.ts
  kron linearize mechanisms/pendulum.ts --at j1.q=0,j1.qd=0
  kron examples pendulum && npx tsx pendulum.ts

exit codes: 0 ok, 1 model error, 2 usage error
`;
}

const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

async function run(argv: string[], io: Io): Promise<Command | undefined> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return undefined;
  }
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && args.length === 0)) {
    io.stdout.write(shipped(usage()));
    if (name === undefined) throw new UsageError('no command given', { hint: `commands: ${Object.keys(COMMANDS).join(', ')}` });
    return undefined;
  }
  const helpFor = name === 'help' ? args[0] : undefined;
  const command = Object.hasOwn(COMMANDS, helpFor ?? name) ? COMMANDS[helpFor ?? name] : undefined;
  if (!command) {
    throw new UsageError(`unknown command "${helpFor ?? name}"`, {
      hint: `${didYouMean(helpFor ?? name, Object.keys(COMMANDS))}commands: ${Object.keys(COMMANDS).join(', ')}; kron --help lists them`,
    });
  }
  const loaded = await command.load();
  if (helpFor !== undefined || wantsHelp(args)) {
    io.stdout.write(shipped(loaded.help));
    return command;
  }
  await loaded.run(args, io);
  return command;
}

// (argv, streams) => exit code; errors are printed, never thrown
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const command = Object.hasOwn(COMMANDS, argv[0] ?? '') ? COMMANDS[argv[0]] : undefined;
  try {
    await run(argv, io);
    return 0;
  } catch (e) {
    if (e instanceof KronError) {
      io.stderr.write(e.describe() + '\n');
      return e instanceof UsageError ? 2 : 1;
    }
    if (isParseArgsError(e)) {
      const help = command ? `kron ${argv[0]} --help` : 'kron --help';
      io.stderr.write(`UsageError: ${e.message.split(/\n|\. /)[0]}\n  hint: ${await nearestFlag(e, command)}${help} lists the options\n`);
      return 2;
    }
    io.stderr.write(`internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    return 1;
  }
}

/** "did you mean --stop? " for an unknown flag, from the flags the command's help lists; '' otherwise */
async function nearestFlag(e: TypeError, command: Command | undefined): Promise<string> {
  const unknown = (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(--?[^']+)'/.exec(e.message)?.[1] : undefined;
  if (!unknown || !command) return '';
  const flags = new Set((await command.load()).help.match(/--[a-z][a-z0-9-]*/g));
  return didYouMean(unknown, flags);
}
