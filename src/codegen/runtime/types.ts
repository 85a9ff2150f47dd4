// The types the run-time helpers share with the code that calls them: the
// arrays they read and write, and the shapes of the generated functions the
// loop drivers call back (newton.ts, columns.ts).

/** the generated code's workspace: a plain array of doubles (dense.ts, doubles()); with the WebAssembly target, its memory's view (wasm.ts) */
export type Workspace = number[] | Float64Array;

/** a straight-line piece of a torn loop, as generated: (t, x, u, p, w) */
export type Piece = (t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace) => void;

/** successive substitution's step (substitution.ts): false at a vanishing diagonal */
export type Step = (t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace) => boolean;

/** the module's error reporter (compiled.ts, Fail) */
export type Report = (kind: string, block: number, t: number, residual: number, extra?: unknown) => void;
