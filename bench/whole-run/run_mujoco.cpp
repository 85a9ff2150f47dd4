// MuJoCo C's side of bench/whole-run.ts: the same whole run as
// `kron simulate model --stop T --out file.csv` — load the model, fixed-step
// RK4 at h, every step's time, q and qd written to a CSV with 17 digits.
//   run_mujoco model.xml out.csv stop h     (prints its CPU time, µs, on stderr: cpu N)
#include <mujoco/mujoco.h>
#include <cstdio>
#include <cstdlib>
#include <ctime>
int main(int argc, char** argv) {
  if (argc < 5) { std::fprintf(stderr, "usage: run_mujoco model.xml out.csv stop h\n"); return 2; }
  char err[1000];
  mjModel* m = mj_loadXML(argv[1], nullptr, err, sizeof err);
  if (!m) { std::fprintf(stderr, "%s\n", err); return 1; }
  m->opt.integrator = mjINT_RK4;
  m->opt.timestep = std::atof(argv[4]);
  const long steps = std::lround(std::atof(argv[3]) / m->opt.timestep);
  mjData* d = mj_makeData(m);
  FILE* f = std::fopen(argv[2], "w");
  std::fprintf(f, "time");
  for (int i = 0; i < m->nq; i++) std::fprintf(f, ",q%d", i);
  for (int i = 0; i < m->nv; i++) std::fprintf(f, ",qd%d", i);
  std::fprintf(f, "\n");
  for (long k = 0; k <= steps; k++) {
    std::fprintf(f, "%.17g", d->time);
    for (int i = 0; i < m->nq; i++) std::fprintf(f, ",%.17g", d->qpos[i]);
    for (int i = 0; i < m->nv; i++) std::fprintf(f, ",%.17g", d->qvel[i]);
    std::fprintf(f, "\n");
    if (k < steps) mj_step(m, d);
  }
  std::fclose(f);
  mj_deleteData(d);
  mj_deleteModel(m);
  std::fprintf(stderr, "cpu %ld\n", static_cast<long>(static_cast<double>(std::clock()) * 1e6 / CLOCKS_PER_SEC));
  return 0;
}
