/**
 * Steady-state closed forms of TCP throughput, as pure functions. Windows in segments, rates in
 * packets/s, times in seconds. Sources and checked values: ../shared/research/fluid-models.md §1.
 */

/**
 * Mathis, Semke, Mahdavi, Ott, "The macroscopic behavior of the TCP congestion avoidance algorithm",
 * CCR 27(3), 1997: periodic loss, sawtooth between W/2 and W: mean window sqrt(3 / (2 b p)).
 * @param b segments per ACK that slow the additive increase (2 with delayed ACKs and per-ACK growth).
 */
export function mathisWindow(p: number, b = 1): number {
  return Math.sqrt(3 / (2 * b * p));
}

/** Reno's average window as RFC 3649 and RFC 9438's tables write it: 1.2 / sqrt(p). */
export function renoRfcWindow(p: number): number {
  return 1.2 / Math.sqrt(p);
}

/** HighSpeed TCP's response function (RFC 3649): max(Reno, 0.12 / p^0.835). For RFC 9438's tables. */
export function hstcpWindow(p: number): number {
  return Math.max(renoRfcWindow(p), 0.12 / Math.pow(p, 0.835));
}

/**
 * Padhye, Firoiu, Towsley, Kurose, "Modeling TCP throughput: a simple model and its empirical
 * validation", SIGCOMM 1998 / ToN 8(2) 2000, full model (ToN eq. 31 with eqs. 13 and 28): fast
 * retransmits (triple duplicate ACKs), timeouts with exponential back-off, receiver window Wmax.
 * @returns packets/s.
 */
export function pftkFull(p: number, rttS: number, b: number, t0S: number, wmax = Infinity): number {
  const q = 1 - p;
  const e = (2 + b) / (3 * b);
  const ew = e + Math.sqrt((8 * q) / (3 * b * p) + e * e);
  const qhat = (w: number): number => pftkTimeoutProbability(p, w);
  const f = pftkBackoff(p);
  if (ew < wmax) {
    const qh = qhat(ew);
    return (q / p + ew + qh / q) / (rttS * ((b / 2) * ew + 1) + (qh * t0S * f) / q);
  }
  const qh = qhat(wmax);
  return (q / p + wmax + qh / q) / (rttS * ((b / 8) * wmax + q / (p * wmax) + 2) + (qh * t0S * f) / q);
}

/** PFTK approximate model (SIGCOMM 1998 eq. 33): packets/s. */
export function pftkApprox(p: number, rttS: number, b: number, t0S: number, wmax = Infinity): number {
  const x = 1 / (rttS * Math.sqrt((2 * b * p) / 3) + t0S * Math.min(1, 3 * Math.sqrt((3 * b * p) / 8)) * p * (1 + 32 * p * p));
  return Math.min(wmax / rttS, x);
}

/**
 * CUBIC's average window under deterministic loss (RFC 9438 §5.1 and its Appendix; RFC 8312 §5.1):
 * ((C (3 + beta)) / (4 (1 - beta)))^(1/4) RTT^(3/4) / p^(3/4). With C = 0.4, beta = 0.7: 1.054 (RTT/p)^0.75.
 */
export function cubicAvgWindow(p: number, rttS: number, c: number, beta: number): number {
  return Math.pow((c * (3 + beta)) / (4 * (1 - beta)), 0.25) * Math.pow(rttS, 0.75) / Math.pow(p, 0.75);
}

/**
 * Average window of AIMD(alpha, beta) (Floyd, Handley, Padhye 2000): sqrt(alpha (1 + beta) / (2 (1 - beta) p)).
 * CUBIC's Reno-friendly region uses alpha = 3 (1 - beta) / (1 + beta), which gives Mathis' sqrt(3 / (2p)).
 */
export function aimdWindow(p: number, alpha: number, beta: number): number {
  return Math.sqrt((alpha * (1 + beta)) / (2 * (1 - beta) * p));
}

/**
 * CUBIC's response function as RFC 9438 §5.1 tabulates it (Tables 1-2): max(Reno, cubic average),
 * with Reno's average window written 1.2 / sqrt(p) as in the RFC's tables (and RFC 3649). The
 * Reno-friendly region's AIMD(alpha_cubic, beta) average is Mathis' sqrt(3 / (2p)) = 1.2247 / sqrt(p)
 * for any beta (alpha_cubic = 3 (1 - beta) / (1 + beta) is chosen to match Reno; {@link aimdWindow}),
 * 2% above the RFC's rounded constant; the tables, and so this function, use 1.2.
 */
export function cubicResponseWindow(p: number, rttS: number, c: number, beta: number): number {
  return Math.max(renoRfcWindow(p), cubicAvgWindow(p, rttS, c, beta));
}

/**
 * PFTK's Q-hat(w) (ToN 2000 eq. 24 as approximated in eq. 25): the probability that a loss indication
 * in a window of w segments is a timeout rather than a triple duplicate ACK. About 3 / w for small p.
 */
export function pftkTimeoutProbability(p: number, w: number): number {
  const q = 1 - p;
  if (w <= 3) return 1;
  return Math.min(1, ((1 - q ** 3) * (1 + q ** 3 * (1 - q ** (w - 3)))) / (1 - q ** w));
}

/** PFTK's f(p) = 1 + p + 2p^2 + ... + 32p^6: the mean length of a timeout sequence in T0 under exponential back-off (eq. 28). */
export function pftkBackoff(p: number): number {
  return 1 + p + 2 * p ** 2 + 4 * p ** 3 + 8 * p ** 4 + 16 * p ** 5 + 32 * p ** 6;
}

/**
 * Share of time a flow spends in retransmission timeouts in PFTK's full model (the timeout term of
 * eq. 31's denominator over the whole denominator), for a mean window w segments and a probability
 * `qTo` that a loss indication is a timeout (PFTK's Reno: {@link pftkTimeoutProbability}).
 */
export function pftkTimeoutTimeShare(p: number, rttS: number, b: number, t0S: number, w: number, qTo = pftkTimeoutProbability(p, w)): number {
  const q = 1 - p;
  const to = (qTo * t0S * pftkBackoff(p)) / q;
  return to / (rttS * ((b / 2) * w + 1) + to);
}

/**
 * Tahoe under periodic loss (derived in the style of Mathis et al.; [D] in the research notes):
 * each cycle slow-starts from 1 to W/2 (log2(W/2) RTTs, ~W/2 packets) and then grows +1/b per RTT from
 * W/2 to W (b W / 2 RTTs, 3 b W^2 / 8 packets); 1/p packets per cycle fixes W. Returns the time-mean window.
 */
export function tahoeWindow(p: number, b = 1): number {
  const a = (3 * b) / 8;
  const w = (-0.5 + Math.sqrt(0.25 + (4 * a) / p)) / (2 * a);
  const rounds = Math.max(0, Math.log2(Math.max(w / 2, 1))) + (b * w) / 2;
  return 1 / p / rounds;
}

/**
 * Westwood+ fluid equilibrium (research notes §1.4/§2.4, after Grieco & Mascolo 2005 and Chen et al.
 * 2003): rate sqrt((1 - p) / (p (Tp + Tq) Tq)) packets/s, Tq the queueing delay. It diverges as
 * Tq -> 0, so on a link of `shareRate` packets/s per flow the queue settles where the rate equals the
 * share: Tq* solves (Tp + Tq) Tq = (1 - p) / (p share^2). Returns the rate, window and Tq*.
 */
export function westwoodEquilibrium(p: number, tpS: number, shareRate: number, maxQueueDelayS = Infinity): { rate: number; window: number; tqS: number } {
  const k = (1 - p) / (p * shareRate * shareRate);
  const tq = Math.min(maxQueueDelayS, (-tpS + Math.sqrt(tpS * tpS + 4 * k)) / 2);
  const rate = Math.min(shareRate, Math.sqrt((1 - p) / (p * (tpS + tq) * tq)));
  return { rate, window: rate * (tpS + tq), tqS: tq };
}
