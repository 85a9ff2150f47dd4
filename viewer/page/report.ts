// The compile report beside the scene: sizes, loops before and after
// tearing (or relaxing), operation counts, compile time.
import type { CompileReport } from '../../src/report.ts';

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const row = (label: string, value: string | number) => `<tr><td>${escape(label)}</td><td class="n">${escape(String(value))}</td></tr>`;

export function renderReport(el: HTMLElement, r: CompileReport, extra: Record<string, string | number> = {}): void {
  const ops = (o: CompileReport['ops']) => `${o.mul} mul, ${o.add} add, ${o.div} div, ${o.fn} fn`;
  const summary = [
    row('model', r.model),
    row('mode', r.mode),
    row('equations', r.equations),
    row('after alias elimination', r.sortedEquations),
    row('unknowns', r.unknowns),
    row('states', r.states),
    row('ops per derivative', ops(r.ops)),
    row('ops per output sample', ops(r.outputOps)),
    row('compile time', `${r.compileMs} ms`),
    ...Object.entries(extra).map(([k, v]) => row(k, v)),
  ].join('');
  const blocks = r.blocks.length
    ? `<table><tr><th>loop</th><th>size</th><th>torn to</th><th>solver</th><th>linear</th></tr>${r.blocks
        .map(
          (b, i) =>
            `<tr><td>${i + 1}${b.relaxed ? ' (relaxed)' : ''}</td><td class="n">${b.size}</td><td class="n">${b.tearing}</td><td>${b.solver}</td><td>${b.linear ? 'yes' : 'no'}</td></tr>`,
        )
        .join('')}</table>`
    : '<p class="muted">no algebraic loops</p>';
  const relaxed = r.relaxedLoops?.length
    ? `<table><tr><th>relaxed loop</th><th>size</th><th>blocks</th><th>largest</th><th>remainder</th></tr>${r.relaxedLoops
        .map(
          (l, i) =>
            `<tr><td>${i + 1}</td><td class="n">${l.size}</td><td class="n">${l.relaxedBlocks}</td><td class="n">${l.largest}</td><td class="n">${l.remainder}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  el.innerHTML = `<table id="report-summary">${summary}</table><h2>Algebraic loops</h2>${blocks}${relaxed}`;
}
