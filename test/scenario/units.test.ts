import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseDurationS, parseInteger, parseNumber, parseProbability, parseRateBps } from '../../src/units.js';

describe('units', () => {
  it('parseRateBps(text) reads SI rate suffixes case-insensitively', () => {
    expect(parseRateBps('100Mbps')).toBe(100e6);
    expect(parseRateBps('1.5Gbit/s')).toBe(1.5e9);
    expect(parseRateBps('64kbps')).toBe(64e3);
    expect(parseRateBps('1e6')).toBe(1e6);
    expect(parseRateBps('10 mbps')).toBe(10e6);
  });

  it('parseRateBps(text) reads B as bytes and Ki/Mi/Gi as powers of 1024 (SI / IEC 80000-13)', () => {
    expect(parseRateBps('100MBps')).toBe(800e6);
    expect(parseRateBps('12.5MB/s')).toBe(100e6);
    expect(parseRateBps('1Mibps')).toBe(2 ** 20);
    expect(parseRateBps('1MiBps')).toBe(8 * 2 ** 20);
    expect(parseRateBps('2 kbit/s')).toBe(2000);
    expect(() => parseRateBps('100MBPS', '--bandwidth')).toThrow(/--bandwidth has unknown unit 'MBPS'.*b = bit, B = byte/);
    expect(() => parseRateBps('1Mib', '--bandwidth')).toThrow(InputError);
  });

  it('parseProbability(text) takes fractions and percentages, in [0, 1)', () => {
    expect(parseProbability('1e-3')).toBe(1e-3);
    expect(parseProbability('0.1%')).toBeCloseTo(1e-3, 15);
    expect(parseProbability('10 %')).toBeCloseTo(0.1, 15);
    expect(() => parseProbability('100%', '--loss')).toThrow('--loss must be in [0, 1), got 100%');
    expect(() => parseProbability('1.5', '--loss')).toThrow('--loss must be in [0, 1), got 1.5');
    expect(() => parseProbability('x%', '--loss')).toThrow(/--loss must be a decimal number/);
  });

  it('parseDurationS(text) reads s, ms, us and bare seconds', () => {
    expect(parseDurationS('100ms')).toBeCloseTo(0.1, 15);
    expect(parseDurationS('2s')).toBe(2);
    expect(parseDurationS('250us')).toBeCloseTo(250e-6, 18);
    expect(parseDurationS('20')).toBe(20);
  });

  it('rejects unknown units and garbage with the field name', () => {
    expect(() => parseRateBps('100Mbpx', '--bandwidth')).toThrow(/--bandwidth has unknown unit 'Mbpx'/);
    expect(() => parseDurationS('fast', '--delay')).toThrow(InputError);
    expect(() => parseNumber('1e-5x', '--loss')).toThrow(/--loss must be a decimal number/);
    // Number() reads these as 0, 16, 1 and 7: none is what a user means by a loss rate or a seed.
    for (const t of ['', ' ', '0x0', '0x10', '0b1', '0o7', 'Infinity', '1e400', '1_000']) expect(() => parseNumber(t, '--loss')).toThrow(/--loss must be a decimal number/);
    expect([' 1e-3 ', '+2', '-0.5', '.5', '5.', '1E3'].map((t) => parseNumber(t))).toEqual([1e-3, 2, -0.5, 0.5, 5, 1000]);
    expect(() => parseInteger('2.5', '--flows')).toThrow(/whole number/);
  });
});
