// The elementary functions expressions may call: arity, numeric value and
// the JavaScript spelling used by the code generator.
import type { FnName } from './node.ts';

export interface FnInfo {
  readonly arity: number;
  readonly eval: (...x: number[]) => number;
  readonly js: string;
}

export const FUNCTIONS: Record<FnName, FnInfo> = {
  sin: { arity: 1, eval: Math.sin, js: 'Math.sin' },
  cos: { arity: 1, eval: Math.cos, js: 'Math.cos' },
  tan: { arity: 1, eval: Math.tan, js: 'Math.tan' },
  asin: { arity: 1, eval: Math.asin, js: 'Math.asin' },
  acos: { arity: 1, eval: Math.acos, js: 'Math.acos' },
  atan: { arity: 1, eval: Math.atan, js: 'Math.atan' },
  atan2: { arity: 2, eval: Math.atan2, js: 'Math.atan2' },
  sqrt: { arity: 1, eval: Math.sqrt, js: 'Math.sqrt' },
  exp: { arity: 1, eval: Math.exp, js: 'Math.exp' },
  log: { arity: 1, eval: Math.log, js: 'Math.log' },
  abs: { arity: 1, eval: Math.abs, js: 'Math.abs' },
  sign: { arity: 1, eval: Math.sign, js: 'Math.sign' },
  sinh: { arity: 1, eval: Math.sinh, js: 'Math.sinh' },
  cosh: { arity: 1, eval: Math.cosh, js: 'Math.cosh' },
  tanh: { arity: 1, eval: Math.tanh, js: 'Math.tanh' },
  max: { arity: 2, eval: Math.max, js: 'Math.max' },
  min: { arity: 2, eval: Math.min, js: 'Math.min' },
};
