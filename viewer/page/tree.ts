// The model tree: the run's components as a tree by their hierarchical
// names (b1 holds b1.body and b1.bar), each marked body, joint, rod or
// group; selecting one calls back (the page highlights it in 3D) and shows
// its parameters and signals, the signals with their value at the playhead:
// the recorded ones, or all of the part's once the page replays the run.
import type { PlaybackRun, Scene } from '../../src/io/types.ts';
import type { RunSignals } from './run-signals.ts';

export type PartKind = 'body' | 'joint' | 'rod' | 'group';

export interface TreeNode {
  path: string;
  name: string;
  kind: PartKind;
  children: TreeNode[];
}

/** what each drawn component is, by path */
function kinds(scene: Scene): Map<string, PartKind> {
  const out = new Map<string, PartKind>();
  for (const s of scene.shapes) out.set(s.name, s.kind === 'joint' ? 'joint' : 'body');
  for (const l of scene.links) out.set(l.name, 'rod');
  for (const j of scene.joints) out.set(j.name, 'joint');
  return out;
}

// (scene) => the components as a tree, in the scene's order; groups for the path prefixes
export function modelTree(scene: Scene): TreeNode[] {
  const roots: TreeNode[] = [];
  const nodes = new Map<string, TreeNode>();
  const node = (path: string, kind: PartKind): TreeNode => {
    const known = nodes.get(path);
    if (known) {
      if (kind !== 'group') known.kind = kind;
      return known;
    }
    const dot = path.lastIndexOf('.');
    const made: TreeNode = { path, name: path.slice(dot + 1), kind, children: [] };
    nodes.set(path, made);
    (dot < 0 ? roots : node(path.slice(0, dot), 'group').children).push(made);
    return made;
  };
  for (const [path, kind] of kinds(scene)) node(path, kind);
  return roots;
}

const ICONS: Record<PartKind, string> = { body: '■', joint: '◎', rod: '━', group: '▸' };

export class ModelTreePanel {
  private selected: string | undefined;
  private run: PlaybackRun | undefined;
  private signals: RunSignals | undefined;
  private time = 0;

  constructor(
    private readonly list: HTMLElement,
    private readonly info: HTMLElement,
    private readonly onSelect: (path: string | undefined) => void,
    private readonly onPlot: (signal: string) => void,
  ) {}

  show(run: PlaybackRun, signals: RunSignals): void {
    this.run = run;
    this.signals = signals;
    this.selected = undefined;
    const items = run.scene ? modelTree(run.scene) : [];
    this.list.replaceChildren(...items.map((n) => this.item(n)));
    this.info.replaceChildren();
  }

  private item(n: TreeNode): HTMLElement {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.path = n.path;
    button.className = `part ${n.kind}`;
    button.textContent = `${ICONS[n.kind]} ${n.name}`;
    button.title = `${n.path} (${n.kind})`;
    button.addEventListener('click', () => this.select(this.selected === n.path ? undefined : n.path));
    li.append(button);
    if (n.children.length) {
      const ul = document.createElement('ul');
      ul.append(...n.children.map((c) => this.item(c)));
      li.append(ul);
    }
    return li;
  }

  /** select a component by path (undefined: none) */
  select(path: string | undefined): void {
    this.selected = path;
    for (const b of this.list.querySelectorAll<HTMLButtonElement>('button.part')) b.classList.toggle('selected', b.dataset.path === path);
    this.onSelect(path);
    this.refresh(this.time);
  }

  get selection(): string | undefined {
    return this.selected;
  }

  /** the selected component's parameters and its signals' values at time t */
  refresh(t: number): void {
    this.time = t;
    const run = this.run,
      path = this.selected,
      source = this.signals;
    if (!run || !path || !source) return void this.info.replaceChildren();
    const mine = (name: string) => name.startsWith(`${path}.`);
    const parameters = Object.entries(run.scene?.parameters ?? {}).filter(([n]) => mine(n));
    const parameterNames = new Set(parameters.map(([n]) => n));
    const signals = source.known().filter((n) => mine(n) && !parameterNames.has(n));
    const values = source.valuesAt(signals, t);
    const table = (rows: [string, string][]) => {
      const t = document.createElement('table');
      for (const [a, b] of rows)
        t.insertRow().append(...[a, b].map((x, i) => Object.assign(document.createElement('td'), { textContent: x, className: i ? 'n' : '' })));
      return t;
    };
    const heading = (text: string) => Object.assign(document.createElement('h3'), { textContent: text });
    const signalRows = table(signals.map((n, i) => [n.slice(path.length + 1), values[i].toPrecision(6)]));
    signalRows.querySelectorAll('tr').forEach((row, i) => {
      row.title = 'click: plot it';
      row.addEventListener('click', () => this.onPlot(signals[i]));
    });
    this.info.replaceChildren(
      heading(path),
      heading(`parameters (${parameters.length})`),
      parameters.length
        ? table(parameters.map(([n, v]) => [n.slice(path.length + 1), String(Number(v.toPrecision(6)))]))
        : muted(run.scene?.parameters ? 'none' : 'not in this run (written before the viewer showed parameters)'),
      heading(`signals (${signals.length})`),
      signals.length ? signalRows : muted('none recorded (kron simulate --signals chooses them)'),
    );
  }
}

function muted(text: string): HTMLElement {
  return Object.assign(document.createElement('p'), { textContent: text, className: 'muted' });
}
