import { EventHeap } from './heap.js';

/**
 * The discrete-event core: a clock in integer nanoseconds and an event heap ordered by
 * (time, sequence). It knows nothing about TCP: an event is `(kind, arg)` handed to one dispatch
 * function, so the hot path allocates nothing. No global state: every run owns its Simulator.
 *
 * Cancellation is lazy (as ns-3's `EventId::Cancel`): a cancelled event stays in the heap and is
 * skipped when it reaches the top, so cancel is O(1) and a cancelled event never fires.
 */
export type Dispatch = (kind: number, arg: number) => void;

/** Seconds to integer nanoseconds (rounded to the nearest nanosecond). */
export function secondsToNs(s: number): number {
  return Math.round(s * 1e9);
}

export class Simulator {
  private readonly heap = new EventHeap(1024);
  private nextSeq = 0;
  private readonly cancelled = new Set<number>();
  private dispatch: Dispatch;
  /** Current simulated time, integer nanoseconds. */
  nowNs = 0;
  /** Events dispatched so far (cancelled ones not counted). */
  events = 0;

  constructor(dispatch: Dispatch) {
    this.dispatch = dispatch;
  }

  /** Replaces the dispatch function (lets the model be built after the simulator). */
  setDispatch(dispatch: Dispatch): void {
    this.dispatch = dispatch;
  }

  /**
   * Schedules `(kind, arg)` `delayNs` nanoseconds from now; returns the event id for {@link cancel}.
   * @throws RangeError on a negative or non-integer delay (time never runs backwards).
   */
  schedule(delayNs: number, kind: number, arg: number): number {
    if (!(delayNs >= 0) || !Number.isInteger(delayNs)) {
      throw new RangeError(`Negative or non-integer delay: ${delayNs} ns`);
    }
    const seq = this.nextSeq++;
    this.heap.push(this.nowNs + delayNs, seq, kind, arg);
    return seq;
  }

  /** Schedules at an absolute time (integer ns, not in the past). */
  scheduleAt(timeNs: number, kind: number, arg: number): number {
    if (!(timeNs >= this.nowNs) || !Number.isInteger(timeNs)) {
      throw new RangeError(`Event time ${timeNs} ns is in the past (now ${this.nowNs} ns) or not an integer`);
    }
    const seq = this.nextSeq++;
    this.heap.push(timeNs, seq, kind, arg);
    return seq;
  }

  /** Cancels a pending event by id. Cancelling an event that already ran is a no-op. */
  cancel(eventId: number): void {
    if (eventId >= 0 && eventId < this.nextSeq) this.cancelled.add(eventId);
  }

  /** Time of the next pending event (ns), Infinity if none. Cancelled events may be reported. */
  peekNs(): number {
    return this.heap.peekTime();
  }

  /** Pending events (including cancelled ones not yet skipped). */
  get pending(): number {
    return this.heap.size;
  }

  /**
   * Runs events with time <= untilNs in (time, seq) order, then leaves the clock at untilNs.
   * Resumable: a later call continues where this one stopped.
   */
  run(untilNs: number): void {
    if (untilNs < this.nowNs) throw new RangeError(`run(until=${untilNs}) is before now (${this.nowNs})`);
    const heap = this.heap;
    const cancelled = this.cancelled;
    const dispatch = this.dispatch;
    while (heap.size > 0 && heap.peekTime() <= untilNs) {
      heap.pop();
      if (cancelled.size > 0 && cancelled.delete(heap.topSeq)) continue;
      this.nowNs = heap.topTime;
      this.events++;
      dispatch(heap.topKind, heap.topArg);
    }
    this.nowNs = untilNs;
  }

  /** Runs exactly one (non-cancelled) event; returns false if none is pending. */
  step(): boolean {
    const heap = this.heap;
    while (heap.pop()) {
      if (this.cancelled.size > 0 && this.cancelled.delete(heap.topSeq)) continue;
      this.nowNs = heap.topTime;
      this.events++;
      this.dispatch(heap.topKind, heap.topArg);
      return true;
    }
    return false;
  }
}
