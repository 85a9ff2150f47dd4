#!/usr/bin/env python3
"""High-precision adjudicator for fuzz cases where Kron and the JS oracle
disagree: run by hand, not in tests (it needs python3 with mpmath, which CI
does not have).

    npx tsx bench/fuzz/export-case.ts SEED [--small] > /tmp/case.json
    python3 bench/fuzz/adjudicate.py /tmp/case.json [--digits 50]

It recomputes the loop dynamics at the exact doubles Kron produced (q, qd,
tau of every tree coordinate) in `--digits` significant digits and prints,
for each mode, Kron's error and the JS oracle's error against that truth, in
the fuzzer's norm max_i |a_i - t_i| / (max_i |t_i| + 1).

Independent of both Kron and the JS oracle in method, not only in precision:
  - dynamics by the Jacobian (Lagrange / projected Newton-Euler) form, not
    by RNEA: M = sum_b m J_v^T J_v + J_w^T I_w J_w and
    h = sum_b J_v^T m (a0_b - g) + J_w^T (I_w al0_b + w x I_w w), with the
    body Jacobians from the joint screw axes and the bias accelerations a0,
    al0 (the accelerations at qdd = 0) as d/ds (J(q + s qd) qd) by central
    differences;
  - the cut's Jacobian G = dphi/dq and gamma = -d^2/ds^2 phi(q + s qd) by
    plain central differences (no extrapolation), at a working precision
    far above the target so that step and rounding errors are both ~1e-40;
  - the KKT system [M G^T; G 0] [qdd; lambda] = [Q - h; gamma] solved by LU
    with partial pivoting in that precision.
The singularity analysis prints the singular values of G and the eigenvalues
of Z^T M Z (Z an orthonormal basis of null(G)), with the motion of the
smallest one: a motion that moves no mass shows as an eigenvalue ~10^-digits.

Only the mechanism's description is shared with the JS side: the oracle's
tree (links with their fixed transforms, joints, axes, bodies, force laws)
and cuts, as bench/fuzz/describe.ts makes them from the fuzzer's spec.
"""
import json
import sys

import mpmath as mp

DIGITS = 50
if '--digits' in sys.argv:
    DIGITS = int(sys.argv[sys.argv.index('--digits') + 1])
# finite differences run at twice the digits: h = 10^-(digits/2.5) leaves
# truncation h^2 and rounding 10^-(2 digits)/h^2 both far below 10^-digits
mp.mp.dps = 2 * DIGITS + 10
H1 = mp.mpf(10) ** (-(DIGITS * 2 // 3 + 5))   # first differences: error h^2 + eps/h
H2 = mp.mpf(10) ** (-(DIGITS // 2 + 3))       # second differences: error h^2 + eps/h^2


def num(x):
    return mp.mpf(x)  # the JSON doubles, exactly


def vec(a):
    return mp.matrix([num(x) for x in a])


def mat3(E):
    return mp.matrix([[num(x) for x in row] for row in E])


def unit(v):
    return v / mp.norm(v)


def cross(a, b):
    return mp.matrix([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def rot(n, phi):
    """Rodrigues, n unit"""
    c, s = mp.cos(phi), mp.sin(phi)
    k = 1 - c
    x, y, z = n[0], n[1], n[2]
    return mp.matrix([[c + k * x * x, k * x * y - s * z, k * x * z + s * y],
                      [k * y * x + s * z, c + k * y * y, k * y * z - s * x],
                      [k * z * x - s * y, k * z * y + s * x, c + k * z * z]])


class Mechanism:
    """the oracle's tree expanded into one-axis joints over massless frames"""

    def __init__(self, system):
        tree = system['tree']
        self.g = vec(tree['gravity'])
        self.axes = []     # per coordinate: (parent coordinate or -1, kind, unit axis, E, o)
        self.last = []     # per link: its last coordinate
        self.laws = []
        self.bodies = []   # (coordinate carrying it, m, c, I body-resolved)
        for link in tree['links']:
            for k, a in enumerate(link['axes']):
                parent = (self.last[link['parent']] if link['parent'] >= 0 else -1) if k == 0 else len(self.axes) - 1
                E = mat3(link['E']) if k == 0 else mp.eye(3)
                o = vec(link['o']) if k == 0 else mp.matrix([0, 0, 0])
                self.axes.append((parent, 'prismatic' if link['joint'] == 'prismatic' else 'revolute', unit(vec(a)), E, o))
                self.laws.append(link['law'])
            self.last.append(len(self.axes) - 1)
            b = link.get('body')
            if b:
                I = [num(x) for x in b['I']]
                Ib = mp.matrix([[I[0], I[3], I[4]], [I[3], I[1], I[5]], [I[4], I[5], I[2]]])
                self.bodies.append((self.last[-1], num(b['m']), vec(b['c']), Ib))
        self.n = len(self.axes)
        self.cuts = system['cuts']

    def poses(self, q):
        """world pose (R, r) of every coordinate's frame, and its world axis s and origin"""
        R, r, s = [], [], []
        for i, (p, kind, n, E, o) in enumerate(self.axes):
            Rp, rp = (mp.eye(3), mp.matrix([0, 0, 0])) if p < 0 else (R[p], r[p])
            Ra = Rp * E
            s.append(Ra * n)
            if kind == 'prismatic':
                R.append(Ra)
                r.append(rp + Rp * (o + E * (n * q[i])))
            else:
                R.append(Ra * rot(n, q[i]))
                r.append(rp + Rp * o)
        return R, r, s

    def chain(self, i):
        out = []
        while i >= 0:
            out.append(i)
            i = self.axes[i][0]
        return out

    def body_jacobians(self, q):
        """per body: (CoM, R, Jv 3xn, Jw 3xn) from the screw axes"""
        R, r, s = self.poses(q)
        out = []
        for (i, m, c, Ib) in self.bodies:
            p = r[i] + R[i] * c
            Jv, Jw = mp.zeros(3, self.n), mp.zeros(3, self.n)
            for k in self.chain(i):
                if self.axes[k][1] == 'prismatic':
                    for a in range(3):
                        Jv[a, k] = s[k][a]
                else:
                    col = cross(s[k], p - r[k])
                    for a in range(3):
                        Jv[a, k] = col[a]
                        Jw[a, k] = s[k][a]
            out.append((p, R[i], Jv, Jw))
        return out

    def dynamics(self, q, qd):
        """M(q) and h(q, qd) (gravity included) by the Jacobian form"""
        n = self.n
        qdv = mp.matrix(qd)
        M, h = mp.zeros(n, n), mp.zeros(n, 1)
        here = self.body_jacobians(q)
        plus = self.body_jacobians([q[i] + H1 * qd[i] for i in range(n)])
        minus = self.body_jacobians([q[i] - H1 * qd[i] for i in range(n)])
        for b, (i, m, c, Ib) in enumerate(self.bodies):
            p, Rb, Jv, Jw = here[b]
            Iw = Rb * Ib * Rb.T
            a0 = (plus[b][2] * qdv - minus[b][2] * qdv) / (2 * H1)   # d/ds (Jv(q + s qd) qd)
            al0 = (plus[b][3] * qdv - minus[b][3] * qdv) / (2 * H1)
            w = Jw * qdv
            M += m * (Jv.T * Jv) + Jw.T * Iw * Jw
            h += Jv.T * (m * (a0 - self.g)) + Jw.T * (Iw * al0 + cross(w, Iw * w))
        return M, h

    # ---- cuts -----------------------------------------------------------------
    def frame(self, poses, f):
        R, r, _ = poses
        E, o = mat3(f['E']), vec(f['o'])
        if f['link'] < 0:
            return E, o
        i = self.last[f['link']]
        return R[i] * E, r[i] + R[i] * o

    @staticmethod
    def normals(n):
        a = mp.matrix([1, 0, 0]) if abs(n[0]) < 0.9 else mp.matrix([0, 1, 0])
        u1 = unit(cross(cross(n, a), n))
        return u1, cross(n, u1)

    def phi(self, q):
        P = self.poses(q)
        out = []
        for cut in self.cuts:
            Ra, ra = self.frame(P, cut['a'])
            Rb, rb = self.frame(P, cut['b'])
            d = rb - ra
            t = cut['type']
            if t == 'spherical':
                out += [d[0], d[1], d[2]]
            elif t == 'universal':
                n1, n2 = unit(vec(cut['axes'][0])), unit(vec(cut['axes'][1]))
                out += [d[0], d[1], d[2], dot(Ra * n1, Rb * n2) - dot(n1, n2)]
            elif t == 'planar-prismatic':
                # axes [guide n, the planes' normal p]: no offset along w = p x n, no turn about p
                n, p = unit(vec(cut['axes'][0])), unit(vec(cut['axes'][1]))
                w = unit(cross(p, n))
                out += [dot(Ra * w, d), dot(Ra * n, Rb * w)]
            else:
                n = unit(vec(cut['axes'][0]))
                u1, u2 = self.normals(n)
                if t == 'planar':
                    out += [dot(Ra * u1, d), dot(Ra * u2, d)]
                elif t == 'prismatic':
                    # no offset normal to the guide, frame_b turned as frame_a
                    out += [dot(Ra * u1, d), dot(Ra * u2, d), dot(Ra * u1, Rb * n), dot(Ra * u2, Rb * n), dot(Ra * u1, Rb * u2)]
                else:
                    eb = Rb * n
                    out += [d[0], d[1], d[2], dot(Ra * u1, eb), dot(Ra * u2, eb)]
        return out

    def cut_displacement(self, cut, q):
        """a cut prismatic's slide along its guide: (R_a n) . (r_b - r_a)"""
        P = self.poses(q)
        Ra, ra = self.frame(P, cut['a'])
        _, rb = self.frame(P, cut['b'])
        return dot(Ra * unit(vec(cut['axes'][0])), rb - ra)

    def cut_angle(self, cut, q):
        P = self.poses(q)
        Ra, _ = self.frame(P, cut['a'])
        Rb, _ = self.frame(P, cut['b'])
        n = unit(vec(cut['axes'][0]))
        u, _ = self.normals(n)
        ub = Ra.T * (Rb * u)
        return mp.atan2(dot(n, cross(u, ub)), dot(u, ub))

    def solve(self, q, qd, tau):
        n = self.n
        q, qd, tau = [num(x) for x in q], [num(x) for x in qd], [num(x) for x in tau]
        M, h = self.dynamics(q, qd)
        Q = mp.matrix([num(tau[i]) - num(l['c']) * (q[i] - num(l['q0'])) - num(l['d']) * qd[i] for i, l in enumerate(self.laws)])
        step = lambda k, e: [q[i] + (e if i == k else 0) for i in range(n)]
        # G by central differences, gamma by the second difference along qd
        cols = [[(a - b) / (2 * H1) for a, b in zip(self.phi(step(k, H1)), self.phi(step(k, -H1)))] for k in range(n)]
        c = len(cols[0]) if cols else 0
        # mpmath has no 0 x n matrices: a tree (no cuts) keeps G and gamma as None
        G = mp.matrix(c, n) if c else None
        for k in range(n):
            for i in range(c):
                G[i, k] = cols[k][i]
        along = lambda s: self.phi([q[i] + s * qd[i] for i in range(n)])
        f0, fp, fm = along(0), along(H2), along(-H2)
        gamma = mp.matrix([-(fp[i] - 2 * f0[i] + fm[i]) / H2 ** 2 for i in range(c)]) if c else None
        # drives and spring-dampers on cut revolutes act on the relative angle, on cut prismatics on the slide
        for cut in self.cuts:
            law = cut.get('law') or {'c': 0, 'q0': 0, 'd': 0}
            if cut['type'] in ('spherical', 'universal') or not (cut.get('tau') or law['c'] or law['d']):
                continue
            coordinate = self.cut_displacement if cut['type'] in ('prismatic', 'planar-prismatic') else self.cut_angle
            dth = [(coordinate(cut, step(k, H1)) - coordinate(cut, step(k, -H1))) / (2 * H1) for k in range(n)]
            thd = sum(dth[k] * qd[k] for k in range(n))
            drive = num(cut.get('tau') or 0) - num(law['c']) * (coordinate(cut, q) - num(law['q0'])) - num(law['d']) * thd
            for k in range(n):
                Q[k] += drive * dth[k]
        return dict(M=M, h=h, Q=Q, G=G, gamma=gamma, phi=max([abs(x) for x in f0] + [0]),
                    Gqd=max([abs(x) for x in (G * mp.matrix(qd))] + [0]) if c else 0)


def kkt(sys_):
    M, h, Q, G, gamma = sys_['M'], sys_['h'], sys_['Q'], sys_['G'], sys_['gamma']
    n, c = M.rows, (G.rows if G is not None else 0)
    A = mp.zeros(n + c, n + c)
    b = mp.zeros(n + c, 1)
    for i in range(n):
        b[i] = Q[i] - h[i]
        for j in range(n):
            A[i, j] = M[i, j]
        for j in range(c):
            A[i, n + j] = G[j, i]
            A[n + j, i] = G[j, i]
    for j in range(c):
        b[n + j] = gamma[j]
    x = mp.lu_solve(A, b)
    return [x[i] for i in range(n)]


def analysis(sys_):
    """singular values of G; eigenvalues of Z^T M Z and the motion of the smallest"""
    M, G = sys_['M'], sys_['G']
    n, c = M.rows, (G.rows if G is not None else 0)
    out = {}
    if c:
        U, S, V = mp.svd_r(G)
        sv = sorted([S[i] for i in range(min(c, n))], reverse=True)
        out['sigma_G'] = sv
        # rows of V: right singular vectors; the last n - c span null(G)
        GtG = G.T * G
        E, Q = mp.eigsy(GtG)
        order = sorted(range(n), key=lambda k: E[k])
        Z = mp.matrix(n, n - c)
        for j, k in enumerate(order[:n - c]):
            for i in range(n):
                Z[i, j] = Q[i, k]
    else:
        Z = mp.eye(n)
    R = Z.T * M * Z
    E, V = mp.eigsy(R)
    order = sorted(range(R.rows), key=lambda k: E[k])
    out['eig_ZMZ'] = [E[k] for k in order]
    if order:
        v = Z * mp.matrix([V[i, order[0]] for i in range(R.rows)])
        out['softest'] = [v[i] for i in range(n)]
    out['eig_M'] = sorted([e for e in mp.eigsy(M)[0]])
    return out


def perturbed(case, k):
    """the case's description and state with every input number moved by a
    relative 2^-52 (one rounding of a double) in a seeded random direction"""
    import random
    rnd = random.Random(k)
    bump = lambda x: x * (1 + (rnd.random() * 2 - 1) * 2.0 ** -52) if isinstance(x, float) else x
    walk = lambda v: [walk(x) for x in v] if isinstance(v, list) else {a: walk(b) for a, b in v.items()} if isinstance(v, dict) else bump(v)
    return walk(case)


def rel(a, t):
    scale = max(abs(x) for x in t) + 1
    return max(abs(num(a[i]) - t[i]) for i in range(len(t))) / scale


def fmt(x, d=3):
    return mp.nstr(x, d)


def main():
    case = json.load(open(sys.argv[1]), parse_float=float)
    mech = Mechanism(case['system'])
    names = case['names']
    print(f"seed {case['seed']}{' (small)' if case.get('small') else ''}: {mech.n} coordinates {names}, {len(mech.cuts)} cut(s) {[c['type'] for c in mech.cuts]}; working at {DIGITS} digits")
    states = [(m['mode'], m) for m in case['modes'] if m['ok']]
    if case.get('assembled'):
        states.append(('assembled (oracle Newton; rest speeds 0)', case['assembled']))
    for label, st in states:
        s = mech.solve(st['q'], st['qd'], st['tau'])
        an = analysis(s)
        print(f"-- {label}: |phi| {fmt(s['phi'])}, |G qd| {fmt(s['Gqd'])}")
        if 'sigma_G' in an:
            sv = an['sigma_G']
            print(f"   sigma(G) {[fmt(x) for x in sv]}, sigma_min/sigma_max {fmt(sv[-1] / sv[0])}")
        ez = an['eig_ZMZ']
        if ez:
            print(f"   eig(Z^T M Z) {[fmt(x) for x in ez]}  (min/max {fmt(ez[0] / ez[-1])})")
            print(f"   softest motion in null(G): {[fmt(x, 3) for x in an['softest']]}")
        print(f"   eig(M) {[fmt(x) for x in an['eig_M']]}")
        try:
            t = kkt(s)
        except ZeroDivisionError:
            print('   KKT: exactly singular at this precision')
            continue
        print(f"   truth qdd {[fmt(x, 12) for x in t]}")
        if '--perturb' in sys.argv:
            # the data condition: how far the truth moves when every input (geometry, masses, q, qd, tau)
            # is rounded differently, i.e. the best any double-precision computation can be held to
            spread = mp.mpf(0)
            for k in range(4):
                pc = perturbed({'system': case['system'], 'st': {a: st[a] for a in ('q', 'qd', 'tau')}}, k)
                tk = kkt(Mechanism(pc['system']).solve(pc['st']['q'], pc['st']['qd'], pc['st']['tau']))
                spread = max(spread, rel([float(x) for x in tk], t))
            print(f"   data condition: truth moves by {fmt(spread)} (rel) under relative 2^-52 perturbations of all inputs")
        if 'qdd' in st:
            print(f"   kron  qdd {[f'{x:.12g}' for x in st['qdd']]}")
            print(f"   Kron error (rel) {fmt(rel(st['qdd'], t))}, per coordinate {[fmt(abs(num(st['qdd'][i]) - t[i]), 2) for i in range(len(t))]}")
        o = st.get('oracle')
        if o and not o['singular']:
            print(f"   oracle qdd {[f'{x:.12g}' for x in o['qdd']]}")
            print(f"   oracle error (rel) {fmt(rel(o['qdd'], t))}")
            if 'sensitivity' in o:
                # the oracle's own per-coordinate bound (loops.ts, dataSensitivity): does it hold?
                scale = max(abs(x) for x in t) + 1
                ratio = max(abs(num(o['qdd'][i]) - t[i]) / (num(o['sensitivity'][i]) + mp.mpf('1e-14') * scale) for i in range(len(t)))
                print(f"   oracle error / (its data sensitivity + 1e-14 scale), worst coordinate: {fmt(ratio)}")
                if 'qdd' in st:
                    kr = [abs(num(st['qdd'][i]) - t[i]) / (16 * num(o['sensitivity'][i]) + mp.mpf('1e-8') * scale) for i in range(len(t))]
                    print(f"   Kron error / (1e-8 scale + 16 x data sensitivity), per coordinate {[fmt(x, 2) for x in kr]}")
        elif o:
            print(f"   oracle: singular ({o['why']})")


if __name__ == '__main__':
    main()
