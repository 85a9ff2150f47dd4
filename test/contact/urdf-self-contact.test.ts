// A URDF robot touching itself (urdfMechanism's selfContact, kron simulate
// --self-contact): every pair of links but adjacent ones (a parent and its
// child) and links fixed together, against a plain enumeration of that
// rule over the chain written here; off by default (the ground only); a
// chain folding under gravity strikes its own base.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContactScene } from 'kron';
import { parseUrdf } from '../../src/io/urdf-parse.ts';
import { urdfMechanism } from '../../src/io/urdf.ts';

const link = (name: string, z: number) => `<link name="${name}">
    <inertial><origin xyz="0 0 ${z / 2}"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 ${z / 2}"/><geometry><box size="0.06 0.06 ${z + 0.04}"/></geometry></collision>
  </link>`;
const joint = (name: string, type: string, parent: string, child: string, z: number) => `<joint name="${name}" type="${type}">
    <origin xyz="0 0 ${z}"/><parent link="${parent}"/><child link="${child}"/><axis xyz="0 1 0"/>
  </joint>`;

// base (fixed in the world) - l1 - l2 - l3 + tool fixed on l3; each box overlaps its neighbours at the joints
const URDF = `<robot name="chain">
  ${link('base', 0.3)} ${link('l1', 0.3)} ${link('l2', 0.3)} ${link('l3', 0.3)} ${link('tool', 0.1)}
  ${joint('j1', 'continuous', 'base', 'l1', 0.3)} ${joint('j2', 'continuous', 'l1', 'l2', 0.3)} ${joint('j3', 'continuous', 'l2', 'l3', 0.3)}
  ${joint('fix', 'fixed', 'l3', 'tool', 0.3)}
</robot>`;

// the rule, plainly: links on one rigid group never; links one joint apart never; the ground ("world") with every link but those fixed to the world
const RIGID: Record<string, string> = { base: 'world', l1: 'l1', l2: 'l2', l3: 'l3', tool: 'l3' };
const PARENT: Record<string, string> = { l1: 'world', l2: 'l1', l3: 'l2' };
function expected(self: boolean): string[] {
  const names = ['world', ...Object.keys(RIGID)];
  const group = (n: string) => (n === 'world' ? 'world' : RIGID[n]);
  const out: string[] = [];
  for (const a of names)
    for (const b of names) {
      if (a >= b) continue;
      const [g, h] = [group(a), group(b)];
      if (g === h) continue;
      if (g !== 'world' && h !== 'world' && (PARENT[g] === h || PARENT[h] === g)) continue;
      if (!self && a !== 'world' && b !== 'world') continue;
      out.push(`${a}|${b}`);
    }
  return out.sort();
}

const pairsOf = (selfContact: boolean) => {
  const scene = ContactScene.of(urdfMechanism(parseUrdf(URDF), { contact: true, selfContact }).mechanism);
  const link = (i: number) => scene.geometries[i].name.split('.')[0];
  return scene.pairs.map(([i, j]) => [link(i), link(j)].sort().join('|')).sort();
};

describe('URDF self-contact (selfContact, --self-contact)', () => {
  it('every pair of links but adjacent and fixed-together ones; off by default', () => {
    expect(pairsOf(true)).toEqual(expected(true));
    expect(pairsOf(true)).toContain('base|l2');
    expect(pairsOf(true)).toContain('l1|tool');
    expect(pairsOf(false)).toEqual(expected(false));
  });

  it('kron simulate --contact --self-contact: the chain falls onto itself; --self-contact without a URDF or --contact is a usage error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-self-'));
    const file = join(dir, 'chain.urdf');
    writeFileSync(file, URDF);
    const root = new URL('../../', import.meta.url).pathname;
    const kron = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), ...args], { cwd: root, encoding: 'utf8' });
    // j2 bent almost double: l2 and l3 fold back down beside l1 and strike the base (l3 and the base are three joints apart)
    const r = kron(
      'simulate',
      file,
      '--contact',
      '--self-contact',
      '--start',
      'j2.q=2.9',
      '--start',
      'j3.q=0.5',
      '--integrator',
      'radau',
      '--stop',
      '0.5',
      '--interval',
      '0.05',
      '--signals',
      'contact.*',
      '--no-cache',
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [head, ...rows] = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const self = head.flatMap((n, k) => (n.endsWith('.fn') && !n.includes('world') ? [k] : []));
    expect(self.length).toBe(expected(true).filter((p) => !p.includes('world')).length);
    expect(Math.max(...rows.flatMap((row) => self.map((k) => Number(row[k]))))).toBeGreaterThan(0);
    const mjcf = kron('simulate', 'test/io/fixtures/mjcf/humanoid.xml', '--contact', '--self-contact', '--stop', '0.01');
    expect(mjcf.status).toBe(2);
    expect(mjcf.stderr).toMatch(/--self-contact is for URDF robots.*MJCF robot touches itself as its file says/s);
    const alone = kron('simulate', file, '--self-contact', '--stop', '0.01', '--no-cache');
    expect(alone.stderr).toMatch(/--self-contact needs --contact/);
  });
});
