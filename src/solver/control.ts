/** Step-size control of the Dormand-Prince driver (integrator.ts). */

/** Step-size control constants (Hairer, Norsett & Wanner, "Solving ODEs I", II.4; as scipy's rk.py). */
export const SAFETY = 0.9;
export const MIN_FACTOR = 0.2;
export const MAX_FACTOR = 5;
/** Error exponent 1/(q + 1) for the 4th-order embedded estimate of Dormand-Prince 5(4). */
export const ERR_EXPONENT = 1 / 5;

/** Hairer-Wanner starting step, simplified: 1% of the scaled size of y over the scaled size of f. */
export function initialStep(f0: number[], y0: number[], atol: number, rtol: number, span: number): number {
  let d0 = 0;
  let d1 = 0;
  for (let i = 0; i < y0.length; i++) {
    const sk = atol + rtol * Math.abs(y0[i]!);
    d0 += (y0[i]! / sk) ** 2;
    d1 += (f0[i]! / sk) ** 2;
  }
  d0 = Math.sqrt(d0 / y0.length);
  d1 = Math.sqrt(d1 / y0.length);
  const h = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : (0.01 * d0) / d1;
  return Math.min(h, span);
}

/** The size to retry with after a rejected step of error err (a tenth after a non-finite one). */
export function shrunkStep(hTry: number, err: number): number {
  return hTry * (err === Infinity ? 0.1 : Math.max(MIN_FACTOR, SAFETY * Math.pow(err, -ERR_EXPONENT)));
}

/** The next proposal after an accepted step of error err (no growth right after a rejection). */
export function grownStep(hTry: number, err: number, afterRejection: boolean): number {
  const grow = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, SAFETY * Math.pow(Math.max(err, 1e-10), -ERR_EXPONENT)));
  return afterRejection ? Math.min(hTry, hTry * grow) : hTry * grow;
}
