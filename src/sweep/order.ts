// Results in run order from runs that finish in any order: at most `window`
// runs in flight, each result yielded when every run before it has been.

// (run count, start run i, window, called at each finished run) => outcomes by index
export async function* inOrder<T>(count: number, start: (index: number) => Promise<T>, window: number, onDone?: () => void): AsyncGenerator<T> {
  const inFlight = new Map<number, Promise<T>>();
  let launched = 0;
  const launch = () => {
    while (launched < count && inFlight.size < window) {
      const i = launched++;
      const p = start(i).then((r) => (onDone?.(), r));
      p.catch(() => {}); // awaited in order below; a failure must not count as unhandled before then
      inFlight.set(i, p);
    }
  };
  launch();
  for (let next = 0; next < count; next++) {
    const result = await inFlight.get(next)!;
    inFlight.delete(next);
    launch();
    yield result;
  }
}
