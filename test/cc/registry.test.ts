import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import {
  CONGESTION_CONTROLS,
  createCongestionControl,
  getCongestionControl,
  validateCcParams,
  validateFactory,
} from '../../src/cc/registry.js';
import type { CongestionControlFactory } from '../../src/cc/types.js';
import { VARIANTS, type Variant } from '../../src/variants.js';
import { makeTcb, newAck } from './helpers.js';

function thrown(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('registry', () => {
  it('CONGESTION_CONTROLS keys equal VARIANTS', () => {
    expect(Object.keys(CONGESTION_CONTROLS).sort()).toEqual([...VARIANTS].sort());
  });

  it('every registered algorithm validates (required hooks, defaults in range) and reports its id', () => {
    for (const id of VARIANTS) {
      const factory = getCongestionControl(id);
      expect(factory.id).toBe(id);
      expect(() => validateFactory(id, factory)).not.toThrow();
      const cc = createCongestionControl(id);
      expect(cc.id).toBe(id);
      for (const p of factory.params) {
        expect(p.default).toBeGreaterThanOrEqual(p.min);
        expect(p.default).toBeLessThanOrEqual(p.max);
        expect(p.doc.length).toBeGreaterThan(10);
      }
    }
  });

  it('the recovery of each variant without SACK: tahoe none, reno/newreno/westwood/cubic/dctcp/bbr/bbr3 newreno (RFC 5681 reno with partialAcks = 0)', () => {
    const rec = Object.fromEntries(VARIANTS.map((v) => [v, createCongestionControl(v).recovery]));
    expect(rec).toEqual({ tahoe: 'none', reno: 'newreno', newreno: 'newreno', westwood: 'newreno', cubic: 'newreno', dctcp: 'newreno', bbr: 'newreno', bbr3: 'newreno' });
    expect(createCongestionControl('reno', { partialAcks: 0 }).recovery).toBe('reno');
  });

  it('every window-based algorithm runs a slow-start ACK and a loss on a bare TcpState', () => {
    for (const id of VARIANTS.filter((v) => createCongestionControl(v).congControl === undefined)) {
      const cc = createCongestionControl(id);
      const tcb = makeTcb();
      cc.onAck?.(tcb, newAck(0.1, 1, tcb.mssBytes, 0.1));
      cc.increaseWindow(tcb, newAck(0.1));
      expect(tcb.cwndBytes).toBe(11 * tcb.mssBytes);
      expect(cc.ssthresh(tcb, 'dupacks', 0.2)).toBeGreaterThanOrEqual(2 * tcb.mssBytes);
    }
  });

  it('create() returns independent per-flow instances (a loss on one flow leaves the other alone)', () => {
    for (const id of VARIANTS) {
      const a = createCongestionControl(id);
      const b = createCongestionControl(id);
      expect(a).not.toBe(b);
      const ta = makeTcb({ cwndBytes: 40 * 1000, ssthreshBytes: 20 * 1000 });
      const tb = makeTcb({ cwndBytes: 40 * 1000, ssthreshBytes: 20 * 1000 });
      ta.ssthreshBytes = a.ssthresh(ta, 'dupacks', 1);
      ta.cwndBytes = ta.ssthreshBytes;
      for (let i = 0; i < 50; i++) {
        const ack = newAck(1 + i * 0.002, 1, 1000, 0.1);
        b.onAck?.(tb, ack);
        b.increaseWindow(tb, ack);
      }
      const fresh = createCongestionControl(id);
      const tf = makeTcb({ cwndBytes: 40 * 1000, ssthreshBytes: 20 * 1000 });
      for (let i = 0; i < 50; i++) {
        const ack = newAck(1 + i * 0.002, 1, 1000, 0.1);
        fresh.onAck?.(tf, ack);
        fresh.increaseWindow(tf, ack);
      }
      expect(tb.cwndBytes).toBe(tf.cwndBytes);
    }
  });

  it('getCongestionControl(unknown) throws InputError naming the accepted variants', () => {
    const e = thrown(() => getCongestionControl('vegas' as Variant));
    expect(e.field).toBe('variant');
    expect(e.message).toContain('tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3');
  });
});

describe('validateCcParams', () => {
  it('validateCcParams(cubic, {}) fills every default', () => {
    expect(validateCcParams('cubic', {})).toEqual({ c: 0.4, beta: 0.7, fastConvergence: 1, renoFriendly: 1, hystart: 1, cntClamp: 20, hystartDetect: 3, hystartNs3: 0, cntArithmetic: 0 });
    expect(validateCcParams('westwood')).toEqual({ segmentCounting: 0, estimator: 1, filter: 1 });
    expect(validateCcParams('reno', {})).toEqual({ partialAcks: 1 });
    expect(validateCcParams('newreno', {})).toEqual({});
  });

  it('validateCcParams keeps user values over defaults', () => {
    expect(validateCcParams('cubic', { hystart: 1, beta: 0.8 })).toMatchObject({ hystart: 1, beta: 0.8, c: 0.4 });
  });

  it('validateCcParams throws InputError naming an unknown param and the accepted ones', () => {
    const e = thrown(() => validateCcParams('cubic', { gamma: 1 }));
    expect(e.field).toBe('ccParams.gamma');
    expect(e.message).toContain('c, beta, fastConvergence, renoFriendly, hystart, cntClamp, hystartNs3, cntArithmetic, hystartDetect');
    expect(e.message).toContain('hystartNs3');
    const r = thrown(() => validateCcParams('newreno', { beta: 0.5 }));
    expect(r.message).toContain('accepted: none');
  });

  it('validateCcParams throws InputError with the accepted range for an out-of-range value', () => {
    const e = thrown(() => validateCcParams('cubic', { beta: 1.5 }));
    expect(e.field).toBe('ccParams.beta');
    expect(e.problem).toBe('must be in [0.1, 0.95] (ratio), got 1.5');
    expect(thrown(() => validateCcParams('cubic', { c: 0 })).field).toBe('ccParams.c');
  });

  it('validateCcParams rejects a non-integer flag and a non-finite number', () => {
    expect(thrown(() => validateCcParams('cubic', { hystart: 0.5 })).problem).toContain('integer in [0, 1]');
    expect(thrown(() => validateCcParams('cubic', { c: Number.NaN })).problem).toContain('finite');
  });

  it('validateCcParams uses the given field prefix in messages', () => {
    expect(thrown(() => validateCcParams('cubic', { x: 1 }, 'scenario.ccParams')).field).toBe('scenario.ccParams.x');
  });
});

describe('validateFactory', () => {
  const good = CONGESTION_CONTROLS.reno;

  it('validateFactory rejects a table missing a required hook', () => {
    const bad: CongestionControlFactory = {
      ...good,
      create: () => ({ id: 'reno', recovery: 'reno', ssthresh: () => 0 }) as never,
    };
    expect(() => validateFactory('reno', bad)).toThrow(/missing required hook increaseWindow/);
  });

  it('validateFactory rejects a lost-segment hook that is not a function, or one without congControl (only rate-based flows keep send-time state); only bbr3 has one', () => {
    const reno = good.create({});
    const noCongControl: CongestionControlFactory = { ...good, create: () => ({ ...reno, ssthresh: reno.ssthresh, increaseWindow: reno.increaseWindow, onPacketLost: () => undefined }) as never };
    expect(() => validateFactory('reno', noCongControl)).toThrow(/onPacketLost needs congControl/);
    const notFunction: CongestionControlFactory = { ...good, create: () => ({ ...reno, ssthresh: reno.ssthresh, increaseWindow: reno.increaseWindow, onPacketLost: 1 }) as never };
    expect(() => validateFactory('reno', notFunction)).toThrow(/onPacketLost is not a function/);
    const withHook = VARIANTS.filter((v) => typeof createCongestionControl(v).onPacketLost === 'function');
    expect(withHook).toEqual(['bbr3']);
  });

  it('validateFactory rejects a default outside its range and an id mismatch', () => {
    const badParam: CongestionControlFactory = {
      ...good,
      params: [{ name: 'x', doc: 'x', unit: '', default: 5, min: 0, max: 1 }],
    };
    expect(() => validateFactory('reno', badParam)).toThrow(/default of 'x' must be in \[0, 1\]/);
    expect(() => validateFactory('tahoe', good)).toThrow(/id is 'reno'/);
  });

  it('validateFactory rejects an unknown recovery', () => {
    const bad: CongestionControlFactory = {
      ...good,
      create: () => Object.defineProperty(good.create({}), 'recovery', { value: 'sack' }),
    };
    expect(() => validateFactory('reno', bad)).toThrow(/unknown recovery 'sack'/);
  });
});
