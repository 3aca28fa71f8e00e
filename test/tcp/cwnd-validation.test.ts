/**
 * Congestion-window validation: the window grows only while it is what limits sending (Linux
 * tcp_is_cwnd_limited / tcp_cwnd_validate; ns-3 TcpSocketState::IsCwndLimited and its
 * tcp-cwnd-limited-test.cc; RFC 7661 4.3). Bare control block first, then whole runs in which the
 * peer's window, not cwnd, limits a bulk flow.
 */
import { describe, expect, it } from 'vitest';
import { Tcb } from '../../src/tcp/tcb.js';
import { runPacket } from '../../src/packet/run.js';
import type { Variant } from '../../src/variants.js';
import { line } from '../packet/scenarios.js';

const MSS = 1000;

describe('Tcb.isCwndLimited (per usage window, Linux tcp_cwnd_validate)', () => {
  it('keeps a used-up window limited until SND.UNA passes what was outstanding then', () => {
    const tcb = new Tcb(MSS, 10 * MSS, 20 * MSS, true);
    tcb.noteWindowUse(true, 1000, 11000, 9000);
    expect(tcb.isCwndLimited).toBe(true);
    // Same usage window (una 2000 < 11000): a flight that does not fill cwnd keeps the signal.
    tcb.noteWindowUse(false, 2000, 12000, 4000);
    expect(tcb.isCwndLimited).toBe(true);
    // A new usage window that is not used up clears it; in congestion avoidance nothing else counts.
    tcb.ssthreshBytes = 5 * MSS;
    tcb.noteWindowUse(false, 11000, 15000, 4000);
    expect(tcb.isCwndLimited).toBe(false);
  });

  it('lets slow start grow cwnd to twice the largest flight of the window, and no further', () => {
    const tcb = new Tcb(MSS, 7 * MSS, 20 * MSS, true);
    tcb.noteWindowUse(false, 0, 4000, 4000);
    expect(tcb.isCwndLimited).toBe(true); // 7000 < 2 x 4000
    tcb.cwndBytes = 8 * MSS;
    expect(tcb.isCwndLimited).toBe(false); // 8000 = 2 x 4000
    tcb.ssthreshBytes = 6 * MSS;
    tcb.cwndBytes = 7 * MSS;
    expect(tcb.isCwndLimited).toBe(false); // congestion avoidance has no fallback
  });

  it('tracks the largest flight of a window that is never used up', () => {
    const tcb = new Tcb(MSS, 10 * MSS, Infinity, true);
    tcb.noteWindowUse(false, 0, 3000, 3000);
    tcb.noteWindowUse(false, 1000, 7000, 6000); // same window, larger flight: remembered
    tcb.cwndBytes = 11 * MSS;
    expect(tcb.isCwndLimited).toBe(true); // 11000 < 12000
    tcb.noteWindowUse(false, 2000, 8000, 2000); // smaller flight in the same window: ignored
    expect(tcb.isCwndLimited).toBe(true);
  });
});

describe('a bulk flow limited by the peer window', () => {
  // 10 Mbit/s, ~42 ms RTT: BDP ~52 kB, against a 16 KiB receive buffer; no loss, so no window cut.
  const rwndBytes = 16 * 1024;
  function maxCwndBytes(variant: Variant): { maxCwnd: number; goodputBps: number } {
    const s = line({ variant, bottleneckDelayS: 0.02, durationS: 20 });
    s.tcp = { ...s.tcp, rcvBufBytes: rwndBytes };
    const r = runPacket(s);
    const flow = r.flows[0]!;
    return { maxCwnd: Math.max(...flow.trace.cwndBytes.v), goodputBps: flow.summary.goodputBps };
  }

  it.each(['reno', 'cubic', 'dctcp'] as const)('%s: cwnd stops at twice the peer window (slow start), not growing for 20 s', (variant) => {
    const { maxCwnd, goodputBps } = maxCwndBytes(variant);
    // Slow start may take cwnd to just under 2 x the largest flight (one MSS of growth per segment).
    expect(maxCwnd).toBeLessThan(2 * rwndBytes + 2 * 1448);
    // The flow still sends a peer window per RTT: rwnd / RTT, RTT ~ 2 x (10 + 1) ms + serialisation.
    expect(goodputBps).toBeGreaterThan((rwndBytes * 8) / 0.05);
  });

  it('newreno keeps growing cwnd, as ns-3 TcpNewReno does (no cwnd-limited check there)', () => {
    const { maxCwnd } = maxCwndBytes('newreno');
    // 20 s of per-ACK growth at ~ 1/2 MSS per RTT ~ 240 RTTs: well past 2 x rwnd.
    expect(maxCwnd).toBeGreaterThan(4 * rwndBytes);
  });
});
