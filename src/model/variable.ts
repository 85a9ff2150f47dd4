// Model variables. A Variable is a Sym: expressions refer to it by id, and its
// hierarchical name ("s1.w", "body2.frame_a.f[1]") is derived from its owner.
import { type Expr, type Sym, fold, freshSymbol, newSymId } from '../expr/index.ts';
import { ModelError } from '../errors.ts';

/**
 * parameter  known constant, folded into the equations at flattening by default
 * state      known to the equation system, integrated (appears under der())
 * derivative der(state): an unknown of the equation system
 * algebraic  an unknown of the equation system
 * input      known, supplied from outside at every evaluation
 * time       the independent variable
 */
export type VarKind = 'parameter' | 'state' | 'derivative' | 'algebraic' | 'input' | 'time';

export interface Owner {
  readonly path: string;
}

export interface VariableOptions {
  start?: number;
  nominal?: number;
  /** a short description shown in reports */
  description?: string;
  /**
   * a tearing variable wherever it is an unknown of an algebraic loop: the
   * tearing paper's `tearq = residue(q)` with its dummy variable, without the dummy
   */
  tearing?: boolean;
  /** a mode (Component.mode): a discrete input that only event actions change */
  mode?: boolean;
}

export class Variable implements Sym {
  readonly id = newSymId();
  readonly e: Expr;
  kind: VarKind;
  start: number | undefined;
  nominal: number;
  description: string | undefined;
  tearing: boolean;
  /** a mode (Component.mode): held like an input, changed only by event actions */
  readonly mode: boolean;
  /** the parameter's declared value (kind 'parameter'); compile() reads it and never writes it (overrides travel as data) */
  value: number | undefined;
  /** der(this), once this variable has been differentiated */
  derivative: Variable | undefined;
  /** the state this variable is the derivative of */
  stateOf: Variable | undefined;

  constructor(
    readonly owner: Owner | undefined,
    readonly localName: string,
    kind: VarKind,
    options: VariableOptions = {},
  ) {
    this.kind = kind;
    this.start = options.start;
    this.nominal = options.nominal ?? 1;
    this.description = options.description;
    this.tearing = options.tearing ?? false;
    this.mode = options.mode ?? false;
    this.e = freshSymbol(this); // made with the symbol: its node cannot exist yet
  }

  get name(): string {
    if (this.stateOf) return `der(${this.stateOf.name})`;
    return this.owner && this.owner.path ? `${this.owner.path}.${this.localName}` : this.localName;
  }
}

/** the variable an expression node refers to, if it is a plain variable */
export function variableOf(e: Expr): Variable | undefined {
  return e.op === 'sym' && e.sym instanceof Variable ? e.sym : undefined;
}

/** the variables occurring in e, by id (no process-wide registry: it would keep every model alive) */
export function variablesIn(e: Expr): Map<number, Variable> {
  const out = new Map<number, Variable>();
  fold(e, new Map<number, true>(), (n) => {
    const v = variableOf(n);
    if (v) out.set(v.id, v);
    return true;
  });
  return out;
}

/** the independent variable t */
export const TIME = new Variable(undefined, 'time', 'time');
/** the time t as an expression, for equations that depend on it */
export const time: Expr = TIME.e;

/** der(x): the derivative of a variable; x becomes a state */
export function der(x: Expr): Expr {
  const v = variableOf(x);
  if (!v || (v.kind !== 'algebraic' && v.kind !== 'state')) {
    throw new ModelError('der() takes a variable of the model', {
      variables: v ? [v.name] : [],
      hint: 'write der(x) on a variable declared with variable(); der() of parameters, inputs or expressions is not supported',
    });
  }
  if (!v.derivative) {
    v.kind = 'state';
    const d = new Variable(v.owner, `der(${v.localName})`, 'derivative');
    d.stateOf = v;
    v.derivative = d;
  }
  return v.derivative.e;
}
