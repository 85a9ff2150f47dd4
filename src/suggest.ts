// "Did you mean": the known name nearest to a misspelt one, for the hints of
// typed errors (commands, flags, parameters, signals, states, inputs). Near is
// an edit distance (insert, delete or substitute one character, or swap two
// neighbours: "stpo" is one edit from "stop"; case ignored) of at most 2, and
// of at most a third of the name's length: "j1.q" is not a misspelling of
// "j2.w" though two edits turn one into the other.

/** the optimal-string-alignment distance between a and b (Levenshtein plus swaps of neighbours), case ignored */
function distance(a: string, b: string): number {
  const x = a.toLowerCase(),
    y = b.toLowerCase();
  let before: number[] = [],
    row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) next[j] = Math.min(next[j], before[j - 2] + 1);
    }
    [before, row] = [row, next];
  }
  return row[y.length];
}

/** the known name nearest to `name` (header), or undefined when none is near */
export function closest(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(2, Math.max(1, Math.floor(name.length / 3)));
  // ties go to the name of the same length (j1.dq: j1.qd, a swap, rather than j1.q), then to the first
  let best: string | undefined,
    bestScore = limit + 1;
  for (const k of known) {
    if (k === name) continue;
    const score = distance(name, k) + (k.length === name.length ? 0 : 0.5);
    if (score < bestScore) [best, bestScore] = [k, score];
  }
  return best;
}

/** "did you mean X? " for a hint, or '' */
export function didYouMean(name: string, known: Iterable<string>): string {
  const near = closest(name, known);
  return near === undefined ? '' : `did you mean ${near}? `;
}
