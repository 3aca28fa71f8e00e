import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { linGrid, logGrid, parseRange } from '../../src/runs/range.js';

describe('parseRange', () => {
  it('parseRange("1e-5..1e-1:log:5") lands exactly on the decades', () => {
    expect(parseRange('--loss', '1e-5..1e-1:log:5')).toEqual([1e-5, 1e-4, 1e-3, 1e-2, 1e-1]);
  });
  it('parseRange("1e-5..1e-1:log:9") gives half decades 10^(k/2)', () => {
    expect(parseRange('--loss', '1e-5..1e-1:log:9')).toEqual([
      1e-5, 3.16227766017e-5, 1e-4, 3.16227766017e-4, 1e-3, 3.16227766017e-3, 1e-2, 3.16227766017e-2, 1e-1,
    ]);
  });
  it('parseRange("10ms..400ms:log:8", duration) gives seconds with ratio 40^(1/7)', () => {
    const v = parseRange('--rtt', '10ms..400ms:log:8', 'duration');
    expect(v).toHaveLength(8);
    expect(v[0]).toBe(0.01);
    expect(v[7]).toBe(0.4);
    expect(v[1]).toBe(0.016938139801); // 0.01 x 40^(1/7), 12 significant digits
    for (let i = 1; i < 8; i++) expect(v[i]! / v[i - 1]!).toBeCloseTo(40 ** (1 / 7), 9);
  });
  it('a unit on "to" only applies to both ends (10..400ms)', () => {
    expect(parseRange('--rtt', '10..400ms:log:8', 'duration')).toEqual(parseRange('--rtt', '10ms..400ms:log:8', 'duration'));
  });
  it('lin grids are exact at tidy steps: 0..1:lin:5 and 0.1..0.3:lin:3', () => {
    expect(parseRange('--x', '0..1:lin:5')).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(parseRange('--x', '0.1..0.3:lin:3')).toEqual([0.1, 0.2, 0.3]);
    expect(linGrid(1, 2, 1)).toEqual([1]);
    expect(logGrid(1, 100, 3)).toEqual([1, 10, 100]);
  });
  it('comma lists keep order and units: 10Mbps,100Mbps,1Gbps', () => {
    expect(parseRange('--bandwidth', '10Mbps,100Mbps,1Gbps', 'rate')).toEqual([1e7, 1e8, 1e9]);
    expect(parseRange('--loss', '1e-4,1e-3')).toEqual([1e-4, 1e-3]);
    expect(parseRange('--loss', '1%')).toEqual([0.01]);
    expect(parseRange('--rtt', '20ms, 0.1s', 'duration')).toEqual([0.02, 0.1]);
  });
  it('integer axes round log grids and drop duplicates: 1..16:log:5 and 1..3:log:4', () => {
    expect(parseRange('--flows', '1..16:log:5', 'integer')).toEqual([1, 2, 4, 8, 16]);
    expect(parseRange('--flows', '1..3:log:4', 'integer')).toEqual([1, 2, 3]);
    expect(parseRange('--flows', '1,2,4', 'integer')).toEqual([1, 2, 4]);
  });
  const bad: [string, string, Parameters<typeof parseRange>[2]][] = [
    ['--loss', '', 'number'],
    ['--loss', '1e-5..1e-1:log:1', 'number'],
    ['--loss', '1e-5..1e-1:cubic:4', 'number'],
    ['--loss', '0..1e-1:log:4', 'number'],
    ['--loss', 'abc', 'number'],
    ['--loss', '1e-3,1e-3', 'number'],
    ['--rtt', '10ms..400:log:8', 'duration'],
    ['--rtt', '10furlongs', 'duration'],
    ['--rtt', '10,20ms', 'duration'],
    ['--bandwidth', '10Mbpx', 'rate'],
    ['--flows', '1.5,2', 'integer'],
    ['--flows', '2x', 'integer'],
  ];
  it.each(bad)('%s "%s" throws InputError naming the flag and the accepted form', (flag, text, unit) => {
    let err: unknown;
    try {
      parseRange(flag, text, unit);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe(flag);
    expect((err as Error).message).toMatch(flag);
    if (!/twice|mixes/.test((err as Error).message)) expect((err as Error).message).toMatch(/from\.\.to:lin\|log:count/);
  });
});
