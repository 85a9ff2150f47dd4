// Closed forms the contact tests share.

/**
 * The linear law's coefficient of restitution for effective mass m, stiffness k and damping c
 * (Schwager & Poeschel 2007, Granular Matter 9, eq. 20): the contact ends when k delta + c delta'
 * reaches zero, at w t_e = pi - atan(2 b w / (w^2 - b^2)), and e = e^(-b t_e) |cos(w t_e) - (b / w) sin(w t_e)|,
 * with w0^2 = k / m, b = c / (2 m), w = sqrt(w0^2 - b^2) (underdamped)
 */
export function linearRestitution(m: number, k: number, c: number): number {
  const w0 = Math.sqrt(k / m),
    b = c / (2 * m),
    w = Math.sqrt(w0 * w0 - b * b);
  const te = (Math.PI - Math.atan((2 * b * w) / (w * w - b * b))) / w;
  return Math.exp(-b * te) * Math.abs(Math.cos(w * te) - (b / w) * Math.sin(w * te));
}
