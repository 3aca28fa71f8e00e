import { EV_ARRIVE, EV_TX_END } from '../net/events.js';

/**
 * The packet engine's event kinds: the one place they are numbered and dispatched. The simulator
 * only knows (kind, arg) pairs; the network defines its two (src/net/events.ts, re-exported here),
 * the TCP timers and the run's own events get theirs from here, and {@link makeDispatch} routes them.
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

/** What each kind is delivered to; `arg` is a packet id for arrivals, a link id for txEnd, a flow index otherwise. */
export interface EventHandlers {
  arrive(packet: number): void;
  rto(flow: number): void;
  delAck(flow: number): void;
  appStart(flow: number): void;
  appStop(flow: number): void;
  measure(): void;
  /** `arg` is a link id. */
  txEnd(link: number): void;
  pace(flow: number): void;
  /** `arg` is an index into scenario.bottleneck.rateChanges. */
  rateChange(index: number): void;
}

export function makeDispatch(h: EventHandlers): (kind: number, arg: number) => void {
  // Module-local copies: imported bindings are read through accessors under tsx/vite, a call per
  // event in the switch below otherwise.
  const ARRIVE: number = EV_ARRIVE;
  const RTO: number = EV_RTO;
  const DELACK: number = EV_DELACK;
  const APP_START: number = EV_APP_START;
  const APP_STOP: number = EV_APP_STOP;
  const MEASURE: number = EV_MEASURE;
  const TX_END: number = EV_TX_END;
  const PACE: number = EV_PACE;
  const RATE_CHANGE: number = EV_RATE_CHANGE;
  return (kind, arg) => {
    switch (kind) {
      case ARRIVE:
        h.arrive(arg);
        break;
      case RTO:
        h.rto(arg);
        break;
      case DELACK:
        h.delAck(arg);
        break;
      case APP_START:
        h.appStart(arg);
        break;
      case APP_STOP:
        h.appStop(arg);
        break;
      case MEASURE:
        h.measure();
        break;
      case TX_END:
        h.txEnd(arg);
        break;
      case PACE:
        h.pace(arg);
        break;
      case RATE_CHANGE:
        h.rateChange(arg);
        break;
      default:
        throw new Error(`unknown event kind ${kind}`);
    }
  };
}
