/**
 * Where a flow's time goes on a lossy line, packet engine beside its fluid model (issue 21): per run,
 * the time idle in retransmission timeouts (from the last send or ACK to each expiry), the active time,
 * the mean cwnd and the segments sent per active second, timeout sequences and fast recoveries, and the
 * window each loss episode started from. The fluid run is the Poisson-loss sample path on the same seed
 * (as the comparisons run it): idle share x, the window W over active time, its rate while active.
 *   npx tsx scripts/lossBudget.ts <preset> <variant> [--seeds 1,2] [--page N] [--profile ns3|none] [--models DIR]
 * --page N: the seed study's first N replication seeds of that line (report/replicates.ts reportSeed).
 */
import { buildPacketModel } from '../src/packet/run.js';
import { secondsToNs } from '../src/engine/simulator.js';
import { fluidSystem, runFluid } from '../src/fluid/run/runFluid.js';
import { solve } from '../src/solver/index.js';
import { reportSeed } from '../src/report/replicates.js';
import { isPresetName, presetScenario } from '../src/scenario/presets.js';
import type { Scenario } from '../src/scenario/types.js';
import type { Variant } from '../src/variants.js';
import { hasFlag, numberArg, presetProfile, stringArg } from './scriptArgs.js';

const [preset, variant] = process.argv.slice(2);
if (!preset || !isPresetName(preset) || !variant) {
  console.error('usage: npx tsx scripts/lossBudget.ts <preset> <variant> [--seeds 1,2] [--page N] [--profile ns3|none] [--models DIR]');
  process.exit(2);
}
const profile = stringArg('profile') ?? 'ns3';
const modelsDir = stringArg('models');
const page = numberArg('page', 0);
const seeds = page > 0 ? Array.from({ length: page }, (_, r) => reportSeed(1, preset, r)) : (stringArg('seeds') ?? '1').split(',').map(Number);

function scenario(seed: number): Scenario {
  return presetScenario(preset!, variant as Variant, { durationS: numberArg('duration', 100), seed, profile: presetProfile(profile) });
}

interface Budget {
  goodputKbps: number;
  idleS: number;
  activeS: number;
  cwnd: number;
  sentPerS: number;
  timeouts: number;
  expiries: number;
  recoveries: number;
  /** Loss episodes (recovery entries and first timeouts) by the window (segments, floor) they started from: [episodes, timeouts]. */
  byWindow: Map<number, [number, number]>;
  gaps: number[];
  ackDeaths: number;
}

function packet(seed: number): Budget {
  const s = scenario(seed);
  const m = buildPacketModel(s);
  const snd = m.senders[0]!;
  const rcv = m.receivers[0]!;
  const mss = s.mssBytes;
  const stopS = s.durationS - 2.9;
  const nowS = (): number => m.sim.nowNs / 1e9;
  let last = 0.1; // last send or ACK
  let tPrev = 0.1;
  let cwndPrev = snd.tcb.cwndBytes / mss;
  let active = 0;
  let idle = 0;
  let cwndInt = 0;
  let sent = 0;
  let expiries = 0;
  let ackDeaths = 0;
  /** Idle gaps of the expiries: < 0.1 s, 0.1-0.5, 0.5-0.9, 0.9-1.1, >= 1.1 s. */
  const gaps = [0, 0, 0, 0, 0];
  let timeouts = 0;
  let recoveries = 0;
  const byWindow = new Map<number, [number, number]>();
  const bump = (w: number, to: boolean): void => {
    const k = Math.floor(w);
    const e = byWindow.get(k) ?? [0, 0];
    e[0]++;
    if (to) e[1]++;
    byWindow.set(k, e);
  };
  let inRto = false;
  let recovering: { w: number; point: number } | null = null;
  const fail = (w: number): void => {
    const e = byWindow.get(Math.floor(w))!;
    e[1]++;
  };
  const piece = (isIdle: boolean): void => {
    if (inRto) return;
    const t = Math.min(nowS(), stopS);
    if (t > tPrev) {
      if (isIdle) idle += t - tPrev;
      else {
        active += t - tPrev;
        cwndInt += cwndPrev * (t - tPrev);
      }
    }
    tPrev = Math.max(tPrev, t);
  };
  const port = snd.port;
  (snd as { port: typeof port }).port = {
    ...port,
    sendData: (flow: number, seq: number, len: number, isRetx: boolean, ecn: number) => {
      piece(false);
      last = nowS();
      if (last < stopS) sent++;
      port.sendData(flow, seq, len, isRetx, ecn);
    },
  } as typeof port;
  // An expiry is a back-off retry when SND.UNA has not moved since the previous expiry.
  let unaAtRto = -1;
  const onAck = snd.onAck.bind(snd);
  snd.onAck = (...a: Parameters<typeof onAck>) => {
    piece(false);
    last = nowS();
    const fr = snd.fastRecoveries;
    const w = snd.tcb.cwndBytes / mss;
    onAck(...a);
    if (snd.fastRecoveries !== fr && last < stopS) {
      recoveries++;
      bump(w, false);
      recovering = { w, point: snd.sb.highTx };
    }
    if (recovering !== null && snd.sb.una >= recovering.point) recovering = null;
    cwndPrev = snd.tcb.cwndBytes / mss;
  };
  const onRto = snd.onRtoEvent.bind(snd);
  snd.onRtoEvent = () => {
    const before = snd.timeouts;
    const w = snd.tcb.cwndBytes / mss;
    const una = snd.sb.una;
    const highTxBefore = snd.sb.highTx;
    const fired = nowS();
    // Active up to the last send or ACK, idle from there to the expiry (no hook fired in it); taken
    // before the expiry's own retransmission moves the clock on.
    if (tPrev < last) {
      active += last - tPrev;
      cwndInt += cwndPrev * (last - tPrev);
      tPrev = last;
    }
    const gap = Math.max(0, Math.min(fired, stopS) - tPrev);
    // The expiry's own retransmission is sent inside onRto: the stretch up to it is idle, not active.
    inRto = true;
    onRto();
    inRto = false;
    // A stale timer event (a lazily restarted timer) is no expiry: the stretch stays open.
    if (snd.timeouts !== before) {
      tPrev = Math.max(tPrev, Math.min(fired, stopS));
      idle += gap;
      if (fired < stopS) gaps[gap < 0.1 ? 0 : gap < 0.5 ? 1 : gap < 0.9 ? 2 : gap < 1.1 ? 3 : 4]!++;
    }
    if (snd.timeouts !== before && fired < stopS) {
      expiries++;
      if (una !== unaAtRto) {
        timeouts++;
        // Every segment sent had arrived: the ACKs were lost, not the data (the ACK clock died).
        if (rcv.rcvNxt >= highTxBefore) ackDeaths++;
        // A recovery that ends in the timer failed (P2, counted against the window it started from);
        // else a data loss with no fast retransmit (P1, against the window now).
        else if (recovering !== null) fail(recovering.w);
        else bump(w, true);
      }
      unaAtRto = una;
      recovering = null;
    }
    cwndPrev = snd.tcb.cwndBytes / mss;
  };
  m.sim.run(secondsToNs(s.durationS));
  return { goodputKbps: (rcv.deliveredBytes * 8) / s.durationS / 1e3, idleS: idle, activeS: active, cwnd: cwndInt / active, sentPerS: sent / active, timeouts, expiries, recoveries, byWindow, gaps, ackDeaths };
}

interface FluidBudget {
  goodputKbps: number;
  idleS: number;
  activeS: number;
  /** W over the active time (1 - x). */
  cwnd: number;
  /** Expected timeout sequences (nto) and, of them, ACK-clock deaths (ndead; Tahoe only). */
  timeouts: number;
  nack: number;
  /** Loss events (the hybrid models' reductions). */
  events: number;
  /** Active time in Tahoe's wait for the lone segment's delayed ACK. */
  waitS: number;
  /** Loss events by the window (segments, floor) they cut from. */
  byWindow: Map<number, number>;
  /** Segments sent over the run. */
  sent: number;
}

function fluid(seed: number): FluidBudget {
  const s = scenario(seed);
  const opts = { lossProcess: 'poisson' as const, ...(modelsDir !== undefined ? { modelsDir } : {}) };
  const sys = fluidSystem(s, opts);
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
  const y = new Float64Array(sys.layout.n);
  const v = (n: string): number => y[sys.layout.yFlow(0, n)]!;
  const dt = 0.001;
  let idle = 0;
  let wInt = 0;
  let n = 0;
  let waitS = 0;
  // Tahoe's wait mode (one segment per R + delAckTimeout after a loss event).
  const hasWait = sys.layout.yFlow(0, 'wait') >= 0;
  for (let t = 0.1; t < s.durationS - 2.9; t += dt) {
    sol.stateInto(t, y);
    const x = v('x');
    idle += x * dt;
    wInt += (1 - x) * v('W') * dt;
    if (hasWait && v('wait') === 1) waitS += (1 - x) * dt;
    n++;
  }
  const active = n * dt - idle;
  const lossEvents = sol.events.filter((e) => /^(loss event|congestion event)/.test(e.name));
  const events = lossEvents.length;
  const byWindow = new Map<number, number>();
  for (const e of lossEvents) {
    sol.stateInto(e.t - 1e-9, y);
    const k = Math.floor(v('W'));
    byWindow.set(k, (byWindow.get(k) ?? 0) + 1);
  }
  sol.stateInto(s.durationS, y);
  const nack = sys.layout.yFlow(0, 'ndead') >= 0 ? v('ndead') : NaN;
  const summary = runFluid(s, opts).summary;
  const goodputKbps = summary.goodputBps / 1e3;
  const sent = (summary.throughputBps * s.durationS) / (8 * s.mssBytes);
  return { goodputKbps, idleS: idle, activeS: active, cwnd: wInt / active, timeouts: v('nto'), events, nack, waitS, byWindow, sent };
}

const f1 = (x: number): string => x.toFixed(1);
const f2 = (x: number): string => x.toFixed(2);
const all = new Map<number, [number, number]>();
const fAll = new Map<number, number>();
const tot = { ackDeaths: 0, idle: 0, active: 0, seq: 0, exp: 0, rec: 0, fIdle: 0, fSeq: 0, fAck: 0, fEv: 0, n: 0 };
for (const seed of seeds) {
  const p = packet(seed);
  for (const [k, [e, t]] of p.byWindow) {
    const a = all.get(k) ?? [0, 0];
    all.set(k, [a[0] + e, a[1] + t]);
  }
  tot.idle += p.idleS;
  tot.active += p.activeS;
  tot.seq += p.timeouts;
  tot.ackDeaths += p.ackDeaths;
  tot.exp += p.expiries;
  tot.rec += p.recoveries;
  tot.n++;
  let line = `seed ${seed}: packet ${f1(p.goodputKbps)} kbit/s idle ${f1(p.idleS)} s active ${f1(p.activeS)} s cwnd ${f2(p.cwnd)} sent ${(p.sentPerS * p.activeS).toFixed(0)} sent/s ${f1(p.sentPerS)} timeouts ${p.timeouts} (ACK-clock deaths ${p.ackDeaths}, expiries ${p.expiries}) recoveries ${p.recoveries} gaps ${p.gaps.join('/')}`;
  if (!hasFlag('packet-only')) {
    const f = fluid(seed);
    tot.fIdle += f.idleS;
    tot.fSeq += f.timeouts;
    tot.fAck += f.nack;
    tot.fEv += f.events;
    for (const [k, e] of f.byWindow) fAll.set(k, (fAll.get(k) ?? 0) + e);
    line += ` | fluid ${f1(f.goodputKbps)} kbit/s sent ${f.sent.toFixed(0)} idle ${f1(f.idleS)} s active ${f1(f.activeS)} s cwnd ${f2(f.cwnd)} timeouts ${f1(f.timeouts)} (ACK-clock deaths ${f1(f.nack)}) events ${f.events} waiting ${f1(f.waitS)} s`;
  }
  console.log(line);
}
console.log('loss episodes (fast retransmits and data timeouts without one) by the window they started from, timeouts/episodes (packet, all seeds): ' + [...all].sort((a, b) => a[0] - b[0]).map(([k, [e, t]]) => `${k}: ${t}/${e} (${f2(t / e)})`).join(', '));
if (fAll.size > 0) console.log('fluid loss events by the window they cut from, per run: ' + [...fAll].sort((a, b) => a[0] - b[0]).map(([k, e]) => `${k}: ${(e / seeds.length).toFixed(1)}`).join(', '));
const per = (x: number): string => (x / tot.n).toFixed(2);
console.log(`mean per run: packet idle ${per(tot.idle)} s, active ${per(tot.active)} s, fast recoveries ${per(tot.rec)}, timeout sequences ${per(tot.seq)} (ACK-clock deaths ${per(tot.ackDeaths)}), expiries ${per(tot.exp)} (a retry per expiry ${f2((tot.exp - tot.seq) / tot.exp)}), idle per sequence ${f2(tot.idle / tot.seq)} s` +
  (hasFlag('packet-only') ? '' : `; fluid idle ${per(tot.fIdle)} s, loss events ${per(tot.fEv)}, sequences ${per(tot.fSeq)} (ACK-clock deaths ${per(tot.fAck)}), idle per sequence ${f2(tot.fIdle / tot.fSeq)} s`));
