// The generated module's description and its printer (src/codegen/program.ts):
// printing the description gives the module's text; a call of a function that
// sharing replaced is printed as the shared function's with its offsets, and
// the replaced one is not called anywhere; a call inside a condition (Cramer's
// rule) and a dense solve are recorded where they are made; the WebAssembly
// target's hooks print its instance: translated bodies as export calls, the
// arena's arrays as memory views, the dense solve as the kernel's call.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.ts';
import { type Fn, printFn } from '../../src/codegen/ir.ts';
import { type Line, type Program, calleeOf, functionNames, printLine, printModule } from '../../src/codegen/program.ts';
import chain from '../../mechanisms/chain.ts';
import sixbar from '../../mechanisms/sixbar.ts';

function described(c: ReturnType<typeof compile>): { program: Program; ir: Map<string, Fn> } {
  const { program, ir } = c.generated;
  expect(program).toBeDefined();
  return { program: program!, ir: new Map(ir!.map((f) => [f.name, f])) };
}

const linesOf = (p: Program): Line[] => [...p.derivatives, ...p.outputs, ...p.parts.flatMap((q) => (q.k === 'lines' ? q.lines : []))];

describe('the generated module as data', () => {
  const relaxed = compile(chain({ n: 64 }), { mode: 'relaxed', target: 'wasm' });

  it('printed from its description and the IR, it is the module generate() printed, byte for byte', () => {
    const { program, ir } = described(relaxed);
    expect(printModule(program, { straight: (name) => printFn(ir.get(name)!) })).toBe(relaxed.generated.body);
  });

  it('a call of a function replaced by a shared one is printed as the shared call with its offsets', () => {
    const { program } = described(relaxed);
    const replaced = linesOf(program)
      .flatMap((l) => calleeOf(l) ?? [])
      .filter((f) => Object.hasOwn(program.shared, f));
    expect(replaced.length).toBeGreaterThan(10);
    for (const f of replaced) {
      const { fn, offsets } = program.shared[f];
      expect(offsets.length).toBeGreaterThan(0);
      const line = linesOf(program).find((l) => calleeOf(l) === f)!;
      expect(printLine(line, program, {})).toBe(`${fn}(t, x, u, p, w, ${offsets.join(', ')});`);
      // the replaced function is neither printed nor called under its own name
      expect(relaxed.generated.body).not.toContain(`${f}(t, x, u, p, w`);
    }
    expect(functionNames(program)).not.toContain(replaced[0]);
  });

  it("a call inside a condition (Cramer's rule) is recorded: the WebAssembly driver calls it through fns", () => {
    const torn = compile(sixbar(), { mode: 'torn', target: 'wasm' });
    const { program } = described(torn);
    const condition = program.derivatives.find((l) => typeof l !== 'string' && l.pieces[0] === 'if (');
    expect(condition).toBeDefined();
    const regular = (condition as Exclude<Line, string>).pieces[1] as { call: string };
    expect(regular.call).toMatch(/^regular\d+$/);
    expect(torn.wasm!.driver).toContain(`if (fns.${regular.call}(t, x, u, p, w)) {`);
  });

  it("the WebAssembly instance's hooks: export calls, the arena's memory views, the kernel's solve", () => {
    const torn = compile(chain({ n: 24 }), { mode: 'torn', target: 'wasm' });
    const { program } = described(torn);
    const solves = linesOf(program).flatMap((l) =>
      typeof l === 'string' ? [] : l.pieces.flatMap((q) => (typeof q === 'object' && 'solve' in q ? [q.solve] : [])),
    );
    expect(solves.map(([k]) => k)).toEqual([24]);
    const [, H, c] = solves[0];
    const target = torn.wasm!;
    expect(Object.keys(target.arena!)).toEqual([H, c]);
    const at = target.arena![H];
    expect(target.source).toContain(`${H} = mem.subarray(${at}, ${at + 24 * 24})`);
    expect(target.source).toContain(`cholesky(24, ${at * 8}, ${target.arena![c] * 8}, `);
    expect(target.source).not.toContain('choleskySolve(24,');
    expect(torn.generated.body).toContain(`choleskySolve(24, ${H}, ${c})`);
    // every translated function of the module calls its export, the others keep their bodies
    const straight = program.parts.flatMap((q) => (q.k === 'straight' ? [q.name] : []));
    const translated = straight.filter((f) => !(f in target.kept));
    expect(translated.length).toBeGreaterThan(0);
    for (const f of translated) expect(target.source).toMatch(new RegExp(`function ${f}\\(t, x, u, p, w[^)]*\\) \\{\\n  wasm\\.${f}\\(t[^)]*\\);\\n\\}`));
    expect(target.source).not.toContain(`function ${translated[0]}(t, x, u, p, w) {\n  const`);
  });
});
