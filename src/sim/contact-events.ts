// Contacts that make and break as events (simulate's option contactEvents):
// per pair that may touch, the indicator g = the least signed distance of
// its contact points (MARGIN when none is nearer), so a pair that touches
// (g falls through 0) or separates (g rises through 0) within a step is
// located by the event machinery (sim/events.ts: Illinois on the dense
// output, then onto the method's own solution), the step cut there and the
// stepper restarted. Why: at a make the linear law's force jumps from 0 to
// c delta' (its damper), which error control otherwise finds by rejecting
// steps across it. Nothing is applied at the event: the run only restarts
// there, from the first time after the crossing. No Zeno guard: a resting
// contact may touch and part ever faster, and that stops nothing.
import type { ContactScene } from '../contact/scene.ts';
import type { ModelState } from '../codegen/state.ts';
import { ContactRun } from '../contact/run.ts';
import type { EventSource } from './events.ts';

/** pairs farther apart than this (m) have g = MARGIN: a step that goes from beyond it into contact still changes sign */
export const MARGIN = 0.05;

// (scene, a state of the run's model to evaluate the frames on) => the pairs' indicators as an event source
export function contactEventSource(scene: ContactScene, state: ModelState): EventSource {
  const run = new ContactRun(scene, state, 'kinematics', undefined, MARGIN);
  return {
    events: scene.pairs.map(([i, j]) => ({
      name: `contact.${scene.geometries[i].name}__${scene.geometries[j].name}`,
      component: scene.bodies[scene.geometries[j].body] ?? scene.geometries[j].name,
      direction: 'both' as const,
      reinit: [],
      set: [],
    })),
    readsModel: false,
    zeno: false,
    indicators(t, x, out) {
      run.apply(t, x);
      out.fill(MARGIN);
      const c = run.contacts;
      for (let k = 0; k < c.count; k++) out[c.pair[k]] = Math.min(out[c.pair[k]], c.dist[k]);
    },
    apply() {},
  };
}
