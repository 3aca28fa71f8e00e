/**
 * The retransmission-timeout estimator of RFC 6298, in seconds.
 * - (2.1) before any sample RTO = initialRtoS (1 s);
 * - (2.2) first sample R: SRTT = R, RTTVAR = R/2;
 * - (2.3) later samples R': RTTVAR = (1 - beta) RTTVAR + beta |SRTT - R'| FIRST, using the old SRTT,
 *   then SRTT = (1 - alpha) SRTT + alpha R', with alpha = 1/8, beta = 1/4;
 * - RTO = SRTT + max(G, K RTTVAR), K = 4, G the clock granularity;
 * - (2.4) RTO is raised to minRtoS; (2.5) capped at maxRtoS (>= 60 s allowed);
 * - (5.5) each expiry doubles RTO (back-off), capped at maxRtoS;
 * - {@link restart} recomputes RTO from the estimator, dropping the back-off, as ns-3 does on every
 *   ACK of new data (TcpSocketBase::NewAck); RFC 6298 (5.7) allows keeping it until a new sample.
 */
export const RTO_ALPHA = 1 / 8;
export const RTO_BETA = 1 / 4;
export const RTO_K = 4;

export class RtoEstimator {
  srttS = 0;
  rttvarS = 0;
  /** Current RTO including any back-off, seconds. */
  rtoS: number;
  hasSample = false;
  /** Expiries since the last restart. */
  backoffs = 0;

  constructor(
    readonly minRtoS: number,
    readonly maxRtoS: number,
    readonly granularityS: number,
    readonly initialRtoS = 1,
  ) {
    this.rtoS = Math.min(Math.max(initialRtoS, minRtoS), maxRtoS);
  }

  /** Feeds one RTT measurement R (seconds, > 0). */
  sample(rS: number): void {
    if (!this.hasSample) {
      this.srttS = rS;
      this.rttvarS = rS / 2;
      this.hasSample = true;
    } else {
      // Order matters (RFC 6298 2.3): RTTVAR uses the SRTT from before this sample.
      this.rttvarS = (1 - RTO_BETA) * this.rttvarS + RTO_BETA * Math.abs(this.srttS - rS);
      this.srttS = (1 - RTO_ALPHA) * this.srttS + RTO_ALPHA * rS;
    }
    this.rtoS = this.computeRtoS();
    this.backoffs = 0;
  }

  /** RTO from the estimator, without back-off. */
  computeRtoS(): number {
    if (!this.hasSample) return Math.min(Math.max(this.initialRtoS, this.minRtoS), this.maxRtoS);
    const raw = this.srttS + Math.max(this.granularityS, RTO_K * this.rttvarS);
    return Math.min(Math.max(raw, this.minRtoS), this.maxRtoS);
  }

  /** Timer expired: double RTO (RFC 6298 5.5), capped at maxRtoS. */
  backoff(): void {
    this.rtoS = Math.min(2 * this.rtoS, this.maxRtoS);
    this.backoffs++;
  }

  /** New data acknowledged: RTO from the estimator again (drops the back-off). */
  restart(): void {
    this.rtoS = this.computeRtoS();
    this.backoffs = 0;
  }
}
