import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { Cubic } from '../../src/cc/cubic.js';
import { scenarioFromOptions } from '../../src/cli/scenarioOptions.js';
import { InputError } from '../../src/errors.js';
import { buildPacketModel } from '../../src/packet/run.js';
import { flowCc, flowVariants } from '../../src/scenario/flowCc.js';
import { parseScenarioText } from '../../src/scenario/check/load.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { tempDir } from '../helpers/tmp.js';
import { cli } from '../helpers/cli.js';

function thrown(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}

const MIXED = [
  'variant: cubic',
  'ccParams: {beta: 0.8}',
  'durationS: 5',
  'flows:',
  '  - {}',
  '  - {variant: reno}',
  '  - {variant: cubic, ccParams: {c: 0.2}}',
  '  - {variant: westwood, ccParams: {filter: 0}}',
].join('\n');

describe('per-flow congestion control in scenarios', () => {
  it('resolves each flow: own variant, top-level ccParams only for flows of the top-level variant', () => {
    const s = parseScenarioText(MIXED, 'mixed.yaml');
    expect(s.flows.map((_, i) => flowCc(s, i))).toEqual([
      { variant: 'cubic', ccParams: { beta: 0.8 } },
      { variant: 'reno', ccParams: {} },
      { variant: 'cubic', ccParams: { beta: 0.8, c: 0.2 } },
      { variant: 'westwood', ccParams: { filter: 0 } },
    ]);
    expect(flowVariants(s)).toEqual(['cubic', 'reno', 'westwood']);
  });

  it('builds each packet-engine flow with its own algorithm and knobs', () => {
    const m = buildPacketModel(parseScenarioText(MIXED, 'mixed.yaml'));
    expect(m.senders.map((x) => x.cc.id)).toEqual(['cubic', 'reno', 'cubic', 'westwood']);
    const [c0, , c2] = m.senders.map((x) => x.cc);
    expect([(c0 as Cubic).beta, (c0 as Cubic).c]).toEqual([0.8, 0.4]);
    expect([(c2 as Cubic).beta, (c2 as Cubic).c]).toEqual([0.8, 0.2]);
  });

  it('names the flow and the accepted ids or range for a bad flow variant or knob', () => {
    const four = (last: string) => `flows:\n  - {}\n  - {}\n  - {}\n  - ${last}\n`;
    expect(thrown(() => parseScenarioText(four('{variant: vegas}'), 'v.yaml')).message).toBe(
      "v.yaml: flows[3].variant must be one of tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3, got 'vegas'",
    );
    expect(thrown(() => parseScenarioText(four('{variant: cubic, ccParams: {x: 1}}'), 'x.yaml')).message).toBe(
      'x.yaml: flows[3].ccParams.x is not a parameter of cubic (accepted: c, beta, fastConvergence, renoFriendly, hystart, cntClamp, hystartNs3, cntArithmetic, hystartDetect)',
    );
    expect(thrown(() => parseScenarioText(four('{variant: cubic, ccParams: {beta: 1.5}}'), 'b.yaml')).message).toBe(
      'b.yaml: flows[3].ccParams.beta must be in [0.1, 0.95] (ratio), got 1.5',
    );
    // A flow of the default variant inherits nothing it could fail on; its own knob is checked.
    expect(thrown(() => parseScenarioText(four('{ccParams: {beta: 0.5}}'), 'r.yaml')).field).toBe('flows[3].ccParams.beta');
    // Top-level knobs belong to the top-level variant even when no flow runs it.
    expect(thrown(() => parseScenarioText('ccParams: {beta: 0.5}\nflows: [{variant: cubic}]\n', 't.yaml')).field).toBe('ccParams.beta');
  });

  it('checks a file variant even when a flag overrides it', () => {
    expect(thrown(() => parseScenarioText('variant: vegas\n', 'vegas.yaml', 'reno')).field).toBe('variant');
    expect(parseScenarioText('variant: newreno\n', 'nr.yaml').variant).toBe('newreno');
    expect(parseScenarioText('variant: newreno\n', 'nr.yaml', 'cubic').variant).toBe('cubic');
  });
});

describe('flow flags on the command line', () => {
  const dir = tempDir('cclab-flows-');
  const file = join(dir, 'nr.yaml');
  writeFileSync(file, 'variant: newreno\ndurationS: 20\nflows: 2\n');

  it("keeps a file's variant unless --variant is given", () => {
    expect(scenarioFromOptions({ scenario: file }).variant).toBe('newreno');
    expect(scenarioFromOptions({ scenario: file }, 'cubic').variant).toBe('cubic');
    expect(scenarioFromOptions({ scenario: 'ns3-lfn' }).variant).toBe('reno');
  });

  it('--flow-variants sets one variant per flow and must match the flow count', () => {
    const s = scenarioFromOptions({ scenario: 'ns3-lfn', flows: '3', flowVariants: 'cubic,reno,reno' });
    expect(s.flows.map((f) => f.variant)).toEqual(['cubic', 'reno', 'reno']);
    expect(thrown(() => scenarioFromOptions({ scenario: 'ns3-lfn', flows: '3', flowVariants: 'cubic,reno' })).message).toBe(
      '--flow-variants must name one variant per flow: got 2, --flows is 3',
    );
    expect(thrown(() => scenarioFromOptions({ scenario: file, flowVariants: 'cubic' })).message).toBe(
      '--flow-variants must name one variant per flow: got 1, the scenario has 2',
    );
    expect(thrown(() => scenarioFromOptions({ scenario: 'ns3-lfn', flows: '2', flowVariants: 'cubic,vegas' })).field).toBe('--flow-variants');
  });

  it('keeps ns-3 starts by default, and --start-stagger makes 1000 flows fit in 100 s', () => {
    expect(scenarioFromOptions({ scenario: 'ns3-normal', flows: '3' }).flows.map((f) => f.startS)).toEqual([0.1, 0.2, 0.30000000000000004]);
    expect(thrown(() => scenarioFromOptions({ scenario: 'ns3-normal', flows: '1000', duration: '100s' })).message).toMatch(
      /^--flows puts 1000 flows 0.1 s apart, the last starting at 100.0 s, .*give --start-stagger/,
    );
    const s = scenarioFromOptions({ scenario: 'ns3-normal', flows: '1000', duration: '100s', startStagger: '1ms' });
    expect(s.flows).toHaveLength(1000);
    expect(s.flows[999]!.startS).toBeCloseTo(0.1 + 0.999, 12);
    expect(s.flows[999]!.stopS).toBeCloseTo(97.1, 12);
    const f = scenarioFromOptions({ scenario: file, startStagger: '10ms' });
    expect(f.flows.map((x) => x.startS)).toEqual([0, 0.01]);
    expect(thrown(() => scenarioFromOptions({ scenario: 'ns3-lfn', startStagger: '-1ms' })).field).toBe('--start-stagger');
  });

  it('presets take a stagger of their own', () => {
    expect(presetScenario('ns3-lfn', 'reno', { flows: 3, startStaggerS: 0 }).flows.map((f) => f.startS)).toEqual([0.1, 0.1, 0.1]);
  });
});

describe('cclab simulate with mixed flows (in process)', () => {
  afterEach(() => vi.restoreAllMocks());

  const run = (args: string[]) => cli(args).then((r) => ({ code: r.code, out: r.stdout, err: r.stderr }));

  it('bad --flow-variants is one line and exit 2', async () => {
    const r = await run(['simulate', '--flows', '3', '--flow-variants', 'cubic,reno']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('cclab: error: --flow-variants must name one variant per flow: got 2, --flows is 3\n');
  });

  it("--json names each flow's variant and carries Jain's index of the goodputs", async () => {
    const r = await run(['simulate', '--scenario', 'ns3-lfn', '--flows', '2', '--flow-variants', 'cubic,reno', '--duration', '3s', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { jainIndex: number; perFlow: { variant: string; goodputBps: number }[] };
    expect(j.perFlow.map((f) => f.variant)).toEqual(['cubic', 'reno']);
    const [a, b] = j.perFlow.map((f) => f.goodputBps) as [number, number];
    expect(j.jainIndex).toBeCloseTo((a + b) ** 2 / (2 * (a * a + b * b)), 12);
  });

  it("the table lists each flow's variant, goodput and share, and Jain's index", async () => {
    const args = ['simulate', '--scenario', 'ns3-lfn', '--flows', '2', '--flow-variants', 'cubic,reno', '--duration', '3s'];
    const json = JSON.parse((await run([...args, '--json'])).out) as { jainIndex: number; perFlow: { goodputBps: number }[] };
    vi.restoreAllMocks();
    const table = (await run(args)).out;
    const [a, b] = json.perFlow.map((f) => f.goodputBps) as [number, number];
    expect(table).toContain(`Jain's index ${json.jainIndex.toFixed(4)} over 2 flows`);
    expect(table).toMatch(new RegExp(`flow 0 +cubic, .* \\(${((100 * a) / (a + b)).toFixed(1)}%\\)`));
    expect(table).toMatch(new RegExp(`flow 1 +reno, .* \\(${((100 * b) / (a + b)).toFixed(1)}%\\)`));
  });
});
