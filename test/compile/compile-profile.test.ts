// bench/compile-profile.ts splits a `node --cpu-prof` profile into the
// compile's phases. Checked on a profile written by hand, whose samples and
// intervals say what each phase must get: the innermost pipeline frame wins
// (expression and library frames are walked through to the phase that
// called them), idle time is dropped, and a second thread is summed apart.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitProfiles } from '../../bench/compile-profile.ts';

const src = 'file:///repo/dist/src';
/** a tree of frames: [functionName, url, children] */
type Tree = [string, string, Tree[]?];

/** (frame tree, samples as [leaf function name, µs]) => a V8 .cpuprofile's JSON */
function profile(root: Tree, samples: [string, number][]): string {
  const nodes: { id: number; callFrame: { functionName: string; url: string }; children: number[] }[] = [];
  const byName = new Map<string, number>();
  const add = ([functionName, url, children = []]: Tree): number => {
    const id = nodes.length + 1;
    const node = { id, callFrame: { functionName, url }, children: [] as number[] };
    nodes.push(node);
    byName.set(functionName, id);
    node.children = children.map(add);
    return id;
  };
  add(root);
  return JSON.stringify({
    nodes,
    startTime: 0,
    endTime: 1,
    samples: samples.map(([name]) => byName.get(name)!),
    timeDeltas: samples.map(([, us]) => us),
  });
}

describe('bench/compile-profile: CPU by phase from a profile', () => {
  it('gives each sample to the innermost pipeline frame, walks through expr and the library, drops idle', () => {
    const main: Tree = [
      '(root)',
      '',
      [
        ['(idle)', ''],
        ['(garbage collector)', ''],
        [
          'compile',
          `${src}/compile.js`,
          [
            ['flatten', `${src}/model/flatten.js`, [['elaborate', `${src}/library/multibody/body.js`, [['mul', `${src}/expr/build.js`]]]]],
            ['planModel', `${src}/structure/plan.js`, [['fold', `${src}/expr/fold.js`]]],
            ['generate', `${src}/codegen/generate.js`, [['CompiledModel', `${src}/codegen/compiled.js`]]],
            ['checkTarget', `${src}/compile.js`],
          ],
        ],
        ['build', 'kron:user-call', [['Body', `${src}/library/multibody/body.js`]]],
        ['moduleStrategy', 'node:internal/modules/esm/translators'],
      ],
    ];
    const dir = mkdtempSync(join(tmpdir(), 'kron-profile-test-'));
    writeFileSync(
      join(dir, 'CPU.1.cpuprofile'),
      profile(main, [
        ['(idle)', 5000],
        ['(garbage collector)', 300],
        ['mul', 1000], // expr under the library under flatten: flattening
        ['fold', 2000], // expr under structure
        ['CompiledModel', 700], // new Function, though codegen called it
        ['generate', 400],
        ['checkTarget', 100],
        ['Body', 600], // the library under the user's build: the build
        ['moduleStrategy', 200],
      ]),
    );
    writeFileSync(join(dir, 'CPU.2.cpuprofile'), profile(['(root)', '', [['hook', 'node:internal/modules/esm/worker']]], [['hook', 900]]));
    const p = splitProfiles(dir);
    expect(p).toEqual({
      'node+modules': 0.2,
      tsx: 0,
      build: 0.6,
      flatten: 1,
      structure: 2,
      codegen: 0.4,
      newFunction: 0.7,
      compileOther: 0.1,
      gc: 0.3,
      other: 0,
      otherThreads: 0.9,
    });
  });
});
