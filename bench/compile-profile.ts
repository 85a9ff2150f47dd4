// bench/compile-profile: where a `kron compile` process spends its CPU, from
// the V8 CPU profiles `node --cpu-prof` writes (one per thread). Each sample
// of the main thread goes to one phase, by its call stack: the innermost
// frame of the pipeline's own folders (src/model flattening and alias
// elimination, src/structure, src/codegen, the compiled module's
// `new Function`) wins; the expression layer (src/expr) and the component
// library are walked through, since every phase calls them and a sample in
// them belongs to the phase that asked. Samples outside the pipeline are the
// model's build (the user module's default export), module loading (Node's
// ESM loader, tsx), the garbage collector, V8 itself, and the rest. Other
// threads (tsx's loader hooks run in one) are summed as "other threads".
// Idle samples are dropped: the phases add up to the CPU the profile saw.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PHASES = [
  'node+modules',
  'tsx',
  'build',
  'flatten',
  'structure',
  'codegen',
  'newFunction',
  'compileOther',
  'gc',
  'other',
  'otherThreads',
] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseMs = Record<Phase, number>;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** a frame's phase when it is the innermost of the pipeline's, or undefined to look further out */
function pipelinePhase(url: string): Phase | undefined {
  if (/\/codegen\/(compiled|derived|events)\.[jt]s$/.test(url)) return 'newFunction';
  if (/\/src\/codegen\//.test(url)) return 'codegen';
  if (/\/src\/structure\//.test(url)) return 'structure';
  if (/\/src\/model\//.test(url)) return 'flatten';
  return undefined;
}

/** the phase of one sample's stack, leaf first */
function phaseOf(stack: readonly ProfileNode['callFrame'][]): Phase {
  const leaf = stack[0]?.functionName ?? '';
  if (leaf === '(garbage collector)') return 'gc';
  if (leaf === '(program)') return 'other';
  for (const f of stack) {
    const p = pipelinePhase(f.url);
    if (p) return p;
  }
  const has = (test: (f: ProfileNode['callFrame']) => boolean) => stack.some(test);
  if (has((f) => /\/src\/compile\.[jt]s$/.test(f.url))) return 'compileOther';
  if (has((f) => f.url.startsWith('kron:user-call') || /\/src\/cli\/load\.[jt]s$/.test(f.url))) return 'build';
  if (has((f) => /\/node_modules\/tsx\//.test(f.url) || /\/register-[\w-]+\.mjs$/.test(f.url))) return 'tsx';
  if (has((f) => f.url.startsWith('node:internal/modules') || f.functionName === 'compileSourceTextModule')) return 'node+modules';
  return 'other';
}

/** (one thread's profile) => ms of CPU per phase, idle dropped */
function splitProfile(p: Profile): PhaseMs {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const phase = new Map<number, Phase | 'idle'>();
  const out = zero();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i];
    let ph = phase.get(id);
    if (ph === undefined) {
      const stack: ProfileNode['callFrame'][] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
      ph = stack[0].functionName === '(idle)' ? 'idle' : phaseOf(stack);
      phase.set(id, ph);
    }
    if (ph !== 'idle') out[ph] += (p.timeDeltas[i] ?? 0) / 1000;
  }
  return out;
}

export const zero = (): PhaseMs => Object.fromEntries(PHASES.map((p) => [p, 0])) as PhaseMs;

/**
 * (the directory `node --cpu-prof --cpu-prof-dir` wrote) => ms per phase: the
 * main thread's profile is the one whose samples include the compile (or, for
 * a process that compiled nothing, the first); the others are "other threads"
 */
export function splitProfiles(dir: string): PhaseMs {
  const split = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .map((f) => splitProfile(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile));
  if (split.length === 0) throw new Error(`no .cpuprofile in ${dir}: did node run with --cpu-prof?`);
  const busy = (s: PhaseMs) => s.flatten + s.structure + s.codegen + s.build;
  const main = split.reduce((a, b) => (busy(b) > busy(a) ? b : a));
  const out = { ...main };
  for (const s of split) if (s !== main) out.otherThreads += PHASES.reduce((t, p) => t + s[p], 0);
  return out;
}
