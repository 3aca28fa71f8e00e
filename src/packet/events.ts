import type { EventSink } from '../engine/simulator.js';
import type { Dumbbell } from '../net/dumbbell.js';
import { EV_ARRIVE, EV_TX_END } from '../net/events.js';
import type { Scenario } from '../scenario/types.js';
import type { PacketModel } from './model.js';

/**
 * The packet engine's event kinds: the one place they are numbered and dispatched. The simulator
 * only knows (kind, arg) pairs; the network defines its two (src/net/events.ts, re-exported here),
 * the TCP timers and the run's own events get theirs from here, and {@link PacketEvents} routes them.
 */
export { EV_ARRIVE, EV_TX_END };
export const EV_RTO = 1;
export const EV_DELACK = 2;
export const EV_APP_START = 3;
export const EV_APP_STOP = 4;
export const EV_MEASURE = 5;
/** A paced sender's next departure time (src/tcp/pacer.ts); only scheduled for paced flows. */
export const EV_PACE = 7;
/** The bottleneck's rate steps (`arg`: index into scenario.bottleneck.rateChanges). */
export const EV_RATE_CHANGE = 8;

// Module-local copies: imported bindings are read through accessors under tsx/vite, a call per
// event in the dispatch below otherwise.
const ARRIVE: number = EV_ARRIVE;
const RTO: number = EV_RTO;
const DELACK: number = EV_DELACK;
const APP_START: number = EV_APP_START;
const APP_STOP: number = EV_APP_STOP;
const MEASURE: number = EV_MEASURE;
const TX_END: number = EV_TX_END;
const PACE: number = EV_PACE;
const RATE_CHANGE: number = EV_RATE_CHANGE;

/**
 * Every event kind to its handler; `arg` is a packet id for arrivals, a link id for txEnd, an index
 * into scenario.bottleneck.rateChanges for rate changes, a flow index otherwise.
 *
 * One class, not closures made per model: every run in a process (a worker runs dozens) then calls
 * the same functions through the same objects' shapes, so the optimised simulator loop, which inlines
 * {@link handle}, stays valid from one run to the next (closures made per model threw it away on each
 * new model: V8's "wrong call target"). {@link handle} is small on purpose: arrivals are ~all events,
 * and V8 inlines a callee into the loop only while the loop's inlining budget (bytecode size) lasts.
 */
export class PacketEvents implements EventSink {
  private readonly net: Dumbbell;
  private readonly rateChanges: NonNullable<Scenario['bottleneck']['rateChanges']>;

  constructor(
    private readonly model: PacketModel,
    private readonly scenario: Scenario,
  ) {
    this.net = model.net;
    this.rateChanges = scenario.bottleneck.rateChanges ?? [];
    this.snapshot();
  }

  handle(kind: number, arg: number): void {
    if (kind === ARRIVE) this.net.onArrive(arg);
    else this.handleOther(kind, arg);
  }

  /** The measurement window opens: each flow's counters now (also taken at build time, for a run measured from 0). */
  snapshot(): void {
    const { senders, receivers } = this.model;
    this.model.atMeasureStart = senders.map((s, i) => ({ deliveredBytes: receivers[i]!.deliveredBytes, sentBytes: s.bytesSent }));
  }

  private handleOther(kind: number, arg: number): void {
    const { net, senders, receivers } = this.model;
    switch (kind) {
      case RTO:
        senders[arg]!.onRtoEvent();
        break;
      case DELACK:
        receivers[arg]!.onDelAckTimer();
        break;
      case APP_START:
        senders[arg]!.startApp(this.scenario.flows[arg]!.bytes);
        break;
      case APP_STOP:
        senders[arg]!.stopApp();
        break;
      case MEASURE:
        this.snapshot();
        break;
      case TX_END:
        net.onTxEnd(arg);
        break;
      case PACE:
        senders[arg]!.onPaceEvent();
        break;
      case RATE_CHANGE:
        net.links[net.bottleneckForward]!.setBandwidth(this.rateChanges[arg]!.bandwidthBps);
        break;
      default:
        throw new Error(`unknown event kind ${kind}`);
    }
  }
}
