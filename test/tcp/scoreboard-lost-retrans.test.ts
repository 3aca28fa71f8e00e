import { describe, expect, it } from 'vitest';
import { Scoreboard } from '../../src/tcp/scoreboard.js';

const MSS = 100;

/** Ten segments [0, 1000) sent at t = 0, 10, ..., 90 ns; segments 1-9 SACKed, so segment 0 is lost (RFC 6675 IsLost) and resent at 200 ns. */
function afterFastRetransmit(): Scoreboard {
  const sb = new Scoreboard(MSS);
  for (let i = 0; i < 10; i++) sb.sentNew(i * MSS, MSS, i * 10);
  sb.sack(100, 1000);
  sb.markLostRetransmissions();
  sb.markLost(3);
  expect(sb.nextLost()).toBe(0);
  sb.retransmitted(0, 200);
  // pipe = outstanding 1000 - SACKed 900 - lost 100 + retransmitted 100
  expect(sb.pipeBytes).toBe(100);
  expect(sb.nextLost()).toBe(-1);
  return sb;
}

describe('Scoreboard: lost retransmissions (Linux tcp_mark_lost_retrans, RFC 8985, ns-3 MarkRetransmittedSegmentsLost)', () => {
  it('a SACK for a segment sent after the retransmission marks the retransmission lost: it leaves pipe and is resent first', () => {
    const sb = afterFastRetransmit();
    sb.sentNew(1000, MSS, 210);
    sb.sack(1000, 1100);
    sb.markLostRetransmissions();
    // pipe = 1100 - SACKed 1000 - lost 100 + retransmitted 0
    expect(sb.pipeBytes).toBe(0);
    expect(sb.isLost(0)).toBe(true);
    expect(sb.nextLost()).toBe(0);
    sb.retransmitted(0, 300);
    expect(sb.pipeBytes).toBe(100);
    expect(sb.nextLost()).toBe(-1);
    expect(sb.recount()).toEqual({ sackedBytes: sb.sackedBytes, lostBytes: sb.lostBytes, retransBytes: sb.retransBytes });
  });

  it('a segment sent at the same instant as the retransmission proves nothing (strictly later, as ns-3)', () => {
    const sb = afterFastRetransmit();
    sb.sentNew(1000, MSS, 200);
    sb.sack(1000, 1100);
    sb.markLostRetransmissions();
    expect(sb.pipeBytes).toBe(100);
    expect(sb.nextLost()).toBe(-1);
  });

  it('a retransmission that was SACKed itself, or a SACK of data sent before it, marks nothing', () => {
    const sb = afterFastRetransmit();
    sb.sentNew(1000, MSS, 210);
    sb.sentNew(1100, MSS, 220);
    sb.sack(0, 100); // the retransmission arrived (reported as a SACK block, e.g. with the ACK lost)
    sb.sack(1000, 1100);
    sb.markLostRetransmissions();
    expect(sb.lostBytes).toBe(0);
    expect(sb.retransBytes).toBe(0);
    expect(sb.pipeBytes).toBe(100); // only segment 11 is in flight
  });

  it('a timeout forgets the retransmissions: they are all lost again and resent in order', () => {
    const sb = afterFastRetransmit();
    sb.markAllLost();
    sb.sentNew(1000, MSS, 210);
    sb.sack(1000, 1100);
    sb.markLostRetransmissions();
    expect(sb.nextLost()).toBe(0);
    expect(sb.lostBytes).toBe(100);
  });
});
