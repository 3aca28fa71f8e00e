import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../src/scenario/check/load.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';

describe('scenario files', () => {
  it('lay a partial YAML scenario over a preset base', () => {
    const s = parseScenarioText('base: lfn\nvariant: cubic\nbottleneck:\n  loss:\n    rate: 0.01\n', 'my-path.yaml');
    const expected = presetScenario('lfn', 'cubic');
    expected.bottleneck.loss.rate = 0.01;
    expected.name = 'my-path';
    expect(s).toEqual(expected);
  });

  it('start from the generic dumbbell without a base, and expand a flow count', () => {
    const s = parseScenarioText(JSON.stringify({ name: 'four', flows: 4, durationS: 20 }), 'x.json');
    expect(s.flows).toHaveLength(4);
    expect(s.flows[3]).toEqual(dumbbellScenario('reno').flows[0]);
    expect(s.durationS).toBe(20);
    expect(s.mssBytes).toBe(1448);
  });

  it('merge partial flows over the first flow', () => {
    const s = parseScenarioText('flows:\n  - {}\n  - access: {delayS: 0.05}\n', 'rtt.yaml');
    expect(s.flows[1]!.access.delayS).toBe(0.05);
    expect(s.flows[1]!.access.bandwidthBps).toBe(1e9);
  });

  it('reject unknown keys, naming the path and the known keys', () => {
    expect(() => parseScenarioText('bottleneck:\n  bandwith: 5\n', 'typo.yaml')).toThrow(
      /typo.yaml: bottleneck.bandwith is not a known key \(known: bandwidthBps, delayS, queue, loss, rateChanges\)/,
    );
  });

  it('reject out-of-range values with the accepted range', () => {
    expect(() => parseScenarioText('bottleneck: {loss: {rate: 1}}', 'l.yaml')).toThrow(/bottleneck.loss.rate must be in \[0, 1\), got 1/);
    // The ACKs' loss stream: shared (default, absent) or their own; anything else names the field.
    expect(parseScenarioText('base: lfn\nbottleneck: {loss: {ackStream: own}}', 'a.yaml').bottleneck.loss).toEqual({ rate: 1e-3, direction: 'both', ackStream: 'own' });
    expect(() => parseScenarioText('bottleneck: {loss: {ackStream: two}}', 'a.yaml')).toThrow(/bottleneck.loss.ackStream must be one of shared, own, got 'two'/);
    expect(() => parseScenarioText('bottleneck: {bandwidthBps: 0}', 'b.yaml')).toThrow(/bottleneck.bandwidthBps must be in \(0, 1e13\], got 0/);
    expect(() => parseScenarioText('flows: [{startS: 200}]', 'f.yaml')).toThrow(/flows\[0\].startS must be below durationS/);
    expect(() => parseScenarioText('variant: vegas', 'v.yaml')).toThrow(/variant must be one of tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3/);
    expect(() => parseScenarioText('base: wan', 'w.yaml')).toThrow(/base must be one of dumbbell, normal, lfn, lossy/);
  });

  it('check RED thresholds against each other', () => {
    const red = 'bottleneck:\n  queue: {kind: red, limitPackets: 100, minThPackets: 50, maxThPackets: 20, maxP: 0.1, weight: 0.002, gentle: true}\n';
    expect(() => parseScenarioText(red, 'red.yaml')).toThrow(/minThPackets must be below maxThPackets/);
    expect(() => parseScenarioText('bottleneck:\n  queue: {kind: fifo}\n', 'q.yaml')).toThrow(/bottleneck.queue.kind must be one of droptail, red/);
  });

  it('report malformed files as one line', () => {
    expect(() => parseScenarioText('{"a": ', 'bad.json')).toThrow(/^bad.json: \(file\) is not valid JSON/);
    expect(() => parseScenarioText('a: [1, 2', 'bad.yaml')).toThrow(/is not valid YAML/);
    expect(() => parseScenarioText('- 1\n- 2\n', 'list.yaml')).toThrow(/must be a mapping/);
  });
});
