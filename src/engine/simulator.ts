import { EventHeap } from './heap.js';

/**
 * The discrete-event core: a clock in integer nanoseconds and an event heap ordered by
 * (time, sequence). It knows nothing about TCP: an event is `(kind, arg)` handed to one dispatch
 * function, so the hot path allocates nothing. No global state: every run owns its Simulator.
 *
 * Cancellation is lazy (as ns-3's `EventId::Cancel`): a cancelled event stays in the heap and is
 * skipped when it reaches the top, so cancel is O(1) and a cancelled event never fires.
 *
 * Channels: a source whose events come in nondecreasing time order (a FIFO link delivering packets)
 * can queue them on a channel instead of the heap. Only the channel's head sits in the heap, so the
 * heap holds one entry per busy link plus the timers (tens, not thousands) and each event costs a
 * few comparisons. Channel events take their sequence number from the same counter, so the (time,
 * seq) order of dispatch is exactly the one a single heap would give.
 */
export type Dispatch = (kind: number, arg: number) => void;

/**
 * An object that handles every event (the packet engine's PacketEvents). The loop calls one method
 * of one class in every run of a process, which V8 inlines and keeps; a {@link Dispatch} function is
 * wrapped in one (tests, benches).
 */
export interface EventSink {
  handle(kind: number, arg: number): void;
}

class FunctionSink implements EventSink {
  constructor(private readonly fn: Dispatch) {}

  handle(kind: number, arg: number): void {
    this.fn(kind, arg);
  }
}

const toSink = (d: Dispatch | EventSink): EventSink => (typeof d === 'function' ? new FunctionSink(d) : d);

export { secondsToNs } from '../units.js';

export class Simulator {
  private readonly heap = new EventHeap(1024);
  private nextSeq = 0;
  private readonly cancelled = new Set<number>();
  private sink: EventSink;
  private readonly channels: EventChannel[] = [];
  /** Current simulated time, integer nanoseconds. */
  nowNs = 0;
  /** Events dispatched so far (cancelled ones not counted). */
  events = 0;

  constructor(dispatch: Dispatch | EventSink) {
    this.sink = toSink(dispatch);
  }

  /** Replaces the dispatch (lets the model be built after the simulator). */
  setDispatch(dispatch: Dispatch | EventSink): void {
    this.sink = toSink(dispatch);
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
    this.heap.baseNs = this.nowNs;
    this.heap.pushAfter(delayNs, seq, kind, arg);
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

  /** Creates a channel whose events are dispatched as `kind`; returns its id. */
  createChannel(kind: number): number {
    this.channels.push(new EventChannel(kind));
    return this.channels.length - 1;
  }

  /**
   * Queues `(kind of channel, arg)` at timeNs on a channel. Times on one channel must not decrease.
   * Channel events cannot be cancelled.
   */
  scheduleOnChannel(channel: number, timeNs: number, arg: number): void {
    this.scheduleOnChannelAfter(channel, timeNs - this.nowNs, arg);
  }

  /**
   * {@link scheduleOnChannel} `delayNs` from now. The packet engine's hop path passes spans (small
   * integers) rather than times: a time past 2^31 ns is a heap number whenever it crosses a call.
   */
  scheduleOnChannelAfter(channel: number, delayNs: number, arg: number): void {
    const ch = this.channels[channel]!;
    const timeNs = this.nowNs + delayNs;
    if (!(delayNs >= 0) || !(timeNs >= ch.lastTimeNs)) this.channelTimeError(timeNs, ch);
    const seq = this.nextSeq++;
    if (ch.count === 0) {
      // The clock as the heap's base, the span as the argument: no time crosses the call.
      this.heap.baseNs = this.nowNs;
      this.heap.pushAfter(delayNs, seq, -1 - channel, 0);
    }
    ch.append(timeNs, seq, arg);
  }

  /** Out of line: the message's template is bytecode that the hop path's callers would inline for nothing. */
  private channelTimeError(timeNs: number, ch: EventChannel): never {
    throw new RangeError(`Channel event at ${timeNs} ns is before now (${this.nowNs}) or before the channel's last (${ch.lastTimeNs})`);
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
    const sink = this.sink;
    const channels = this.channels;
    // peek() copies the earliest event into heap.top* (false when empty): one call where size,
    // peekTime and peek were three, less bytecode for the loop's inlining budget.
    while (heap.peek() && heap.topTime <= untilNs) {
      let kind = heap.topKind;
      let arg = heap.topArg;
      if (kind < 0) {
        const ch = channels[-1 - kind]!;
        arg = ch.shift();
        kind = ch.kind;
        // The channel's next head takes the top's place: one sift-down instead of pop + push.
        if (ch.count > 0) heap.replaceTopFrom(ch.ring, 3 * ch.head, heap.topKind);
        else heap.consumeTop();
      } else if (cancelled.size > 0 && cancelled.delete(heap.topSeq)) {
        heap.removeTop();
        continue;
      } else {
        // Deferred pop: the handler's first push takes the top's place (EventHeap.consumeTop): 20%
        // of BBR's events at 100 flows (a pacing timer, the next hop's channel head), 0.1% of CUBIC's.
        heap.consumeTop();
      }
      this.nowNs = heap.topTime;
      this.events++;
      sink.handle(kind, arg);
    }
    this.nowNs = untilNs;
  }
}

/**
 * A FIFO of (time, seq, arg) in nondecreasing time: a ring buffer that grows by doubling. The three
 * fields of an entry sit side by side in one array, so an append or a shift touches one cache line
 * (with thousands of links, three separate arrays cost three cache misses per event). Rings start
 * at 4 slots: most links of a many-flow run (each flow's access links) hold one or two packets, and
 * a ring turning through 64 slots would visit a new cache line every few packets.
 */
const INITIAL_CHANNEL_SLOTS = 4;

class EventChannel {
  /** [time, seq, arg] per slot (the run loop reads the head's key in place: EventHeap.replaceTopFrom). */
  ring = new Float64Array(3 * INITIAL_CHANNEL_SLOTS);
  private slots = INITIAL_CHANNEL_SLOTS;
  /** Slot of the oldest entry. */
  head = 0;
  count = 0;
  lastTimeNs = 0;

  constructor(readonly kind: number) {}

  append(timeNs: number, seq: number, arg: number): void {
    if (this.count === this.slots) this.grow();
    let i = this.head + this.count;
    if (i >= this.slots) i -= this.slots;
    const ring = this.ring;
    const k = 3 * i;
    ring[k] = timeNs;
    ring[k + 1] = seq;
    ring[k + 2] = arg;
    this.count++;
    this.lastTimeNs = timeNs;
  }

  /**
   * Removes the head; returns its arg. An emptied ring starts again at slot 0: a flow's access link
   * mostly holds one packet, but its ring grows to its largest burst (32-64 slots, 0.8-1.5 kB, at
   * 1000 flows), and a head walking round it touched a new cache line on most of its events.
   */
  shift(): number {
    const arg = this.ring[3 * this.head + 2]!;
    if (--this.count === 0) this.head = 0;
    else this.head = this.head + 1 === this.slots ? 0 : this.head + 1;
    return arg;
  }

  private grow(): void {
    const n = this.slots;
    const ring = new Float64Array(6 * n);
    for (let k = 0; k < this.count; k++) {
      const i = (this.head + k) % n;
      ring[3 * k] = this.ring[3 * i]!;
      ring[3 * k + 1] = this.ring[3 * i + 1]!;
      ring[3 * k + 2] = this.ring[3 * i + 2]!;
    }
    this.ring = ring;
    this.slots = 2 * n;
    this.head = 0;
  }
}
