// (the run-time helpers a model calls) => their JavaScript and what they
// need, for a generated module to carry (program.ts): only those, in the
// order of parts.generated.ts (constants and scratch space before the code
// that a module runs while it is made, such as newtonBlock).
import { RUNTIME_PARTS } from './parts.generated.ts';

/** a run-time helper (or constant) a generated module may call */
export type RuntimeName = keyof typeof RUNTIME_PARTS;

const ORDER = Object.keys(RUNTIME_PARTS) as RuntimeName[];

/** the names roots need, roots included, in print order */
export function runtimeClosure(roots: Iterable<RuntimeName>): RuntimeName[] {
  const need = new Set<RuntimeName>();
  const stack = [...roots];
  while (stack.length) {
    const name = stack.pop()!;
    if (need.has(name)) continue;
    need.add(name);
    stack.push(...(RUNTIME_PARTS[name].deps as readonly RuntimeName[]));
  }
  return ORDER.filter((n) => need.has(n));
}

/** the runtime's text for roots: each part it needs, once */
export function runtimeSource(roots: Iterable<RuntimeName>): string {
  const names = runtimeClosure(roots);
  if (names.length === 0) return '';
  return ['// the run-time helpers (kron: src/codegen/runtime/), as many as this module calls', ...names.map((n) => RUNTIME_PARTS[n].text)].join('\n');
}

/** every part: the whole runtime (tests, and code that would call any helper) */
export const ALL_RUNTIME: readonly RuntimeName[] = ORDER;
