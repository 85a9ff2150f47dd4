// The command line's compile with V8's interrupt budget raised
// (node/tiering.ts): set before the compile, V8's default again after it even
// when the compile throws, nothing touched where V8's default is not known or
// the user set the budget, and the flag accepted by this Node without a word.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { patientTieringApplies, withPatientTiering } from '../../src/node/tiering.ts';

describe('withPatientTiering', () => {
  it('raises the budget for the work and sets V8 11.3 default (66 KB) back after it', () => {
    const flags: string[] = [];
    const seen = withPatientTiering(
      () => {
        flags.push('work');
        return 42;
      },
      (f) => flags.push(f),
      true,
    );
    expect(seen).toBe(42);
    expect(flags).toEqual(['--interrupt-budget=600000', 'work', '--interrupt-budget=67584']);
  });

  it('sets the default back when the work throws, and the error goes on', () => {
    const flags: string[] = [];
    expect(() =>
      withPatientTiering(
        () => {
          throw new Error('compile failed');
        },
        (f) => flags.push(f),
        true,
      ),
    ).toThrow('compile failed');
    expect(flags).toEqual(['--interrupt-budget=600000', '--interrupt-budget=67584']);
  });

  it('touches no flag where it does not apply', () => {
    const flags: string[] = [];
    expect(
      withPatientTiering(
        () => 'done',
        (f) => flags.push(f),
        false,
      ),
    ).toBe('done');
    expect(flags).toEqual([]);
  });

  it('applies on V8 11.3 only, and not when the user set the budget', () => {
    expect(patientTieringApplies('11.3.244.8-node.33', [])).toBe(true);
    expect(patientTieringApplies('12.4.254.21-node.33', [])).toBe(false);
    expect(patientTieringApplies('11.3.244.8-node.33', ['--interrupt-budget=1000'])).toBe(false);
    expect(patientTieringApplies('11.3.244.8-node.33', ['--max-old-space-size=4096 --interrupt-budget=5'])).toBe(false);
  });

  it("this Node takes both flag values silently when it applies (V8's unknown-flag message would go to stderr)", () => {
    const set =
      "const v8 = require('node:v8'); v8.setFlagsFromString('--interrupt-budget=600000'); v8.setFlagsFromString('--interrupt-budget=67584'); console.log('ok');";
    const r = spawnSync(process.execPath, ['-e', set], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('ok');
    expect(r.stderr).toBe('');
    expect(patientTieringApplies(process.versions.v8, [])).toBe(process.versions.v8.startsWith('11.3.'));
  });
});
