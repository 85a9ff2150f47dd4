// MeshCut of the tearing paper ("Electrical circuits"): an infinitely small
// inductor in series; its current is a tearing variable (a mesh current) and
// its voltage drop the residue:
//   u = residue(i)          { cf. inductor u = L * der(i) }
import { residue } from '../../expr/index.ts';
import { OnePort } from './one-port.ts';

export class MeshCut extends OnePort {
  constructor(name: string) {
    super(name);
    this.equation(this.u, residue(this.i));
  }
}
