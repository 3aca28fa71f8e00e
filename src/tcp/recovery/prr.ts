/** The inputs of RFC 6937's per-ACK computation, all in bytes. */
export interface PrrState {
  prrDelivered: number;
  prrOut: number;
  recoverFs: number;
  ssthresh: number;
  pipe: number;
  /** DeliveredData of this ACK. */
  deliveredData: number;
  mss: number;
}

/**
 * RFC 6937 section 3.1, PRR with the slow-start reduction bound:
 *   if pipe > ssthresh:  sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out
 *   else:                limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS
 *                        sndcnt = MIN(ssthresh - pipe, limit)
 *   sndcnt = MAX(sndcnt, 0)
 * @returns sndcnt, the bytes this ACK allows to be sent.
 */
export function prrSendQuota(s: PrrState): number {
  let sndcnt: number;
  if (s.pipe > s.ssthresh) {
    sndcnt = s.recoverFs > 0 ? Math.ceil((s.prrDelivered * s.ssthresh) / s.recoverFs) - s.prrOut : 0;
  } else {
    const limit = Math.max(s.prrDelivered - s.prrOut, s.deliveredData) + s.mss;
    sndcnt = Math.min(s.ssthresh - s.pipe, limit);
  }
  return sndcnt > 0 ? sndcnt : 0;
}
