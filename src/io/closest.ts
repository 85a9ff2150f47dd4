// The nearest of some names to a mistyped one, for "did you mean" hints.

/** the name within edit distance 2 (ignoring case), if there is one */
export function closest(name: string, names: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  let best: string | undefined, bestDistance = 3;
  for (const n of names) {
    const d = distance(name.toLowerCase(), n.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best;
}
