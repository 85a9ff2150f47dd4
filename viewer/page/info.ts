// The info overlay (as in MuJoCo's simulate): time, the real-time factor
// (simulated seconds shown per second of wall clock, measured), the
// kinetic, potential and total energy at the playhead and the total's drift
// since the start (the integrator's error for a conservative mechanism; with
// contact, the work the contact forces did is shown beside it and taken
// out of it: energy.contact_work, src/library/multibody/energy.ts),
// the integrator and step, and for a live run the compile time and the time of
// one evaluation of the derivatives. Energy and frames come from the run's
// signals, recorded or computed by replay (run-signals.ts).
import type { Integration } from '../../src/io/types.ts';
import { sampleBefore } from '../../src/io/poses.ts';
import type { RunSignals } from './run-signals.ts';

const ENERGY = ['energy.kinetic', 'energy.potential', 'energy.total'] as const;
/** the contact forces' work since the start (a state of a mechanism with collision geometry) */
const CONTACT_WORK = 'energy.contact_work';
/** the real-time factor is averaged over this much wall clock (s) */
const RTF_WINDOW = 0.5;

export interface EnergyAt {
  kinetic: number;
  potential: number;
  total: number;
  /** total(t) - total(0) */
  drift: number;
  /** the contact forces' work from 0 to t (J; ≤ 0 once they let go), when the mechanism has collision geometry */
  contactWork?: number;
}

/** a live run's costs, measured in this page */
export interface LiveCost {
  compileMs: number;
  /** µs per evaluation of the derivatives */
  evaluationUs: number;
}

export interface InfoState {
  time: number;
  live: LiveCost | undefined;
  realTimeFactor: number;
  energy: EnergyAt | undefined;
  energyNote: string;
  integration: string;
}

/** the integrator and its step as one line */
function describeIntegration(i: Integration | undefined): string {
  if (!i) return 'not in this run';
  if (i.switched) return `RK4, h = ${i.step} s, then radau (Radau IIA, implicit) from t = ${i.switched.time} s: RK4's step was unstable`;
  if (i.integrator === 'rk4') return `RK4, h = ${i.step} s`;
  const name = i.integrator === 'radau' ? 'radau (Radau IIA, implicit)' : 'adaptive (Cash-Karp)';
  return `${name}, first h = ${i.step} s${i.rtol !== undefined ? `, rtol ${i.rtol}` : ''}${i.atol !== undefined ? `, atol ${i.atol}` : ''}`;
}

const fixed = (x: number) => (Math.abs(x) >= 1e5 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(4) : x.toFixed(4));

export class InfoOverlay {
  private signals: RunSignals | undefined;
  /** kinetic, potential, total and, with contact, the contact work */
  private energy: ArrayLike<number>[] | undefined;
  private live: LiveCost | undefined;
  private energyNote = '';
  private integration = '';
  /** the contact arrows' scale (contact-arrows.ts); '' when the run has none */
  private contacts = '';
  private rtf = 0;
  private last: InfoState | undefined;

  constructor(private readonly element: HTMLElement) {}

  /** a new run; its energy is computed later (prepareEnergy: it may compile the model) */
  show(signals: RunSignals, integration: Integration | undefined, live?: LiveCost, contacts = ''): void {
    Object.assign(this, {
      signals,
      energy: undefined,
      energyNote: 'energy: computing…',
      integration: describeIntegration(integration),
      rtf: 0,
      live,
      contacts,
    });
  }

  /** the energy columns: recorded, or replayed when the page has the model; else a note says why not */
  prepare(): void {
    const s = this.signals;
    if (!s || this.energy) return;
    if (ENERGY.every((n) => s.has(n))) {
      this.energy = s.columns(s.has(CONTACT_WORK) ? [...ENERGY, CONTACT_WORK] : ENERGY);
      this.energyNote = '';
      return;
    }
    const every = s.every();
    this.energyNote = typeof every === 'string' ? `energy: not available, ${every}` : 'energy: this model has no energy signals';
  }

  /** the real-time factor: simulated dt over wall dt, averaged over about RTF_WINDOW */
  measure(wallDt: number, simDt: number): void {
    if (wallDt <= 0) return;
    const a = Math.min(1, wallDt / RTF_WINDOW);
    this.rtf += a * (simDt / wallDt - this.rtf);
  }

  update(t: number, playing: boolean): void {
    if (!playing) this.rtf = 0;
    this.render(t, playing, this.energyAt(t), this.energyNote);
  }

  /**
   * A frame of the real-time run (run live): its time, real-time factor and
   * energy (kinetic, potential, total at its state; drift since its start,
   * which is the inputs' work when they push)
   */
  updateLive(t: number, wallDt: number, simDt: number, energy: Omit<EnergyAt, 'drift'> | undefined, startTotal: number | undefined): void {
    this.measure(wallDt, simDt);
    const at = energy && startTotal !== undefined ? { ...energy, drift: energy.total - startTotal } : undefined;
    this.render(t, true, at, at ? '' : 'energy: this model has no energy signals', 'live run');
  }

  private render(t: number, playing: boolean, energy: EnergyAt | undefined, energyNote: string, clock = 'time'): void {
    this.last = { time: t, live: this.live, realTimeFactor: this.rtf, energy, energyNote, integration: this.integration };
    const rows: [string, string][] = [
      [clock, `${t.toFixed(3)} s`],
      ['real time', playing ? `${this.rtf.toFixed(2)}x` : 'paused'],
      ...(energy
        ? ([
            ['kinetic', `${fixed(energy.kinetic)} J`],
            ['potential', `${fixed(energy.potential)} J`],
            ['total', `${fixed(energy.total)} J`],
            ['drift', `${energy.drift.toExponential(2)} J`],
            // what the contact took (or gave), and the drift less it: the integrator's error (and the inputs' work), as drift is without contact
            ...(energy.contactWork !== undefined
              ? [
                  ['contact work', `${fixed(energy.contactWork)} J`],
                  ['drift − work', `${(energy.drift - energy.contactWork).toExponential(2)} J`],
                ]
              : []),
          ] as [string, string][])
        : []),
      ['integrator', this.integration],
      ...(this.contacts ? ([['contact arrows', this.contacts]] as [string, string][]) : []),
      ...(this.live
        ? ([
            ['compile', `${this.live.compileMs} ms`],
            ['derivatives', `${this.live.evaluationUs.toFixed(1)} µs`],
          ] as [string, string][])
        : []),
    ];
    const table = document.createElement('table');
    for (const [k, v] of rows) table.insertRow().append(...[k, v].map((x) => Object.assign(document.createElement('td'), { textContent: x })));
    this.element.replaceChildren(table, ...(energyNote ? [Object.assign(document.createElement('p'), { textContent: energyNote })] : []));
  }

  private energyAt(t: number): EnergyAt | undefined {
    if (!this.energy || !this.signals) return undefined;
    const k = sampleBefore(this.signals.time, t);
    const [kinetic, potential, total, contactWork] = this.energy.map((c) => c[k]);
    return { kinetic, potential, total, drift: total - this.energy[2][0], ...(contactWork !== undefined && { contactWork }) };
  }

  state(): InfoState | undefined {
    return this.last;
  }
}
