import { describe, expect, it } from 'vitest';
import { jainIndex, shares } from '../../src/result/fairness.js';

describe("Jain's fairness index", () => {
  it('is 1 for equal shares, 1/n when one flow takes all, k/n when k of n share equally', () => {
    expect(jainIndex([3, 3, 3])).toBe(1);
    expect(jainIndex([5, 0, 0, 0])).toBe(0.25);
    expect(jainIndex([2, 2, 0, 0])).toBe(0.5);
  });
  it('matches the definition (sum x)^2 / (n sum x^2) and is scale-free', () => {
    expect(jainIndex([1, 2, 3])).toBeCloseTo(36 / 42, 15);
    expect(jainIndex([1e6, 2e6, 3e6])).toBeCloseTo(36 / 42, 15);
  });
  it('has no value when nothing was shared', () => {
    expect(jainIndex([0, 0])).toBeNull();
    expect(jainIndex([])).toBeNull();
  });
  it('shares sum to one', () => {
    expect(shares([1, 3])).toEqual([0.25, 0.75]);
    expect(shares([0, 0])).toEqual([null, null]);
  });
});
