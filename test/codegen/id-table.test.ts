// The id hash table of code generation (id-table.ts) against a Map, through its growth.
import { describe, expect, it } from 'vitest';
import { IdTable } from '../../src/codegen/id-table.ts';

describe('IdTable', () => {
  it('keeps what a Map keeps, through growing, for ids near and far apart', () => {
    const table = new IdTable<string>(true, 4);
    const map = new Map<number, { int: number; obj?: string }>();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let k = 0; k < 20000; k++) {
      const id = k % 3 === 0 ? k : next() % (k % 3 === 1 ? 5000 : 2 ** 31 - 1);
      table.add(id, k);
      const e = map.get(id) ?? { int: 0 };
      e.int = (e.int + k) | 0;
      map.set(id, e);
      if (k % 5 === 0) {
        table.setObj(table.slot(id), `o${k}`);
        e.obj = `o${k}`;
      }
    }
    for (const [id, e] of map) {
      expect(table.get(id)).toBe(e.int);
      expect(table.obj(table.find(id))).toBe(e.obj);
    }
    expect(table.has(2 ** 31 - 2) === map.has(2 ** 31 - 2)).toBe(true);
    expect(table.get(-5, 42)).toBe(42);
  });
  it('is empty after clear, and keeps working through further growth', () => {
    const table = new IdTable<number>(true, 4);
    for (let id = 0; id < 1000; id++) table.setObj(table.slot(id * 7, id), id);
    table.clear();
    expect(table.has(7)).toBe(false);
    expect(table.obj(table.slot(7))).toBe(undefined);
    for (let id = 0; id < 3000; id++) table.add(id * 13, id);
    for (let id = 0; id < 3000; id++) expect(table.get(id * 13)).toBe(id);
    expect(table.has(14)).toBe(false);
  });
});
