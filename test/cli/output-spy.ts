// What a piece of code writes to the process's stdout and stderr, for tests
// of code that must write nothing (a progress bar without a terminal).

/** what is written to the process's stdout and stderr until restore() */
export function spyOnOutput(): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((s) => s.write);
  for (const s of streams) s.write = ((chunk: string | Uint8Array) => (calls.push(String(chunk)), true)) as typeof s.write;
  return { calls, restore: () => streams.forEach((s, i) => (s.write = originals[i])) };
}
