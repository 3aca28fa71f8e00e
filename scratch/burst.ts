import { dumbbellScenario } from '../src/scenario/defaults.js';
import { runPacket } from '../src/packet/run.js';
const s = dumbbellScenario('reno'); s.durationS = 3; s.mssBytes = 1460; s.headerBytes = 54;
s.bottleneck.bandwidthBps = 1e9; s.bottleneck.delayS = Number(process.argv[3] ?? 0.01); s.durationS = 6; s.bottleneck.queue = { kind: 'droptail', limitPackets: Number(process.argv[4] ?? 83) };
s.flows[0]!.access = { bandwidthBps: 10e9, delayS: 0.005631, queuePackets: 100000 }; s.flows[0]!.receiverAccess = null; s.tcp.delAckCount = 1;
s.tcp.sack = process.argv[2] !== 'off';
const r = runPacket(s); console.log(JSON.stringify(r.summary));
