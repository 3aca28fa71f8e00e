/** The part of jstat 1.9.6 (CommonJS, no bundled types) that cclab uses. */
declare module 'jstat' {
  interface JStat {
    studentt: {
      /** Quantile function of Student's t with `dof` degrees of freedom. */
      inv(p: number, dof: number): number;
      cdf(x: number, dof: number): number;
    };
    binomial: {
      /** P(X <= k) for X ~ Binomial(n, p). */
      cdf(k: number, n: number, p: number): number;
    };
  }
  const jStat: JStat;
  export default jStat;
}
