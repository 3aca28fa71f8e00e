// Per-seed goodput, retransmits and timeouts for one preset/variant (exploration aid for the ns-3 comparison).
import { presetScenario, type PresetName } from '../src/scenario/presets.js';
import { runPacket } from '../src/packet/run.js';
import type { Variant } from '../src/variants.js';

const [sackArg = 'on', dur = '100', seedsArg = '10', preset = 'lossy', variant = 'westwood', paramsArg = ''] = process.argv.slice(2);
const params = Object.fromEntries(paramsArg.split(',').filter(Boolean).map((kv) => { const [k, v] = kv.split('='); return [k!, Number(v)]; }));
const out: string[] = [];
for (let seed = 1; seed <= Number(seedsArg); seed++) {
  const s = presetScenario(preset as PresetName, variant as Variant, { durationS: Number(dur), seed });
  s.tcp.sack = sackArg === 'on';
  if (Object.keys(params).length) (s as unknown as { ccParams: Record<string, number> }).ccParams = { ...((s as unknown as { ccParams?: Record<string, number> }).ccParams ?? {}), ...params };
  const r = runPacket(s);
  out.push(`${Math.round(r.summary.goodputBps / 1000)}k/${r.summary.retransmits}/${r.summary.timeouts}`);
}
console.log(`${preset}/${variant} sack=${sackArg} ${paramsArg}: ${out.join(' ')}`);
