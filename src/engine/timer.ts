import type { Simulator } from './simulator.js';

/**
 * A one-shot timer over the simulator's heap with lazy re-arming: TCP timers are re-armed far more
 * often than they fire (the RTO on every new ACK), and almost always to a later deadline, so the
 * pending event stays in the heap and is re-checked when it fires instead of being cancelled and
 * pushed again. An earlier deadline cancels it (rare). The owner's dispatch calls {@link fire}.
 */
export class LazyTimer {
  private deadlineNs = -1;
  private eventId = -1;
  private eventAtNs = Infinity;

  constructor(
    private readonly sim: Simulator,
    private readonly kind: number,
    private readonly arg: number,
  ) {}

  get running(): boolean {
    return this.deadlineNs >= 0;
  }

  get deadline(): number {
    return this.deadlineNs;
  }

  /** (Re)starts the timer to expire at deadlineNs (integer ns, not in the past). */
  armAt(deadlineNs: number): void {
    this.deadlineNs = deadlineNs;
    if (this.eventId >= 0 && this.eventAtNs <= deadlineNs) return;
    if (this.eventId >= 0) this.sim.cancel(this.eventId);
    this.eventId = this.sim.scheduleAt(deadlineNs, this.kind, this.arg);
    this.eventAtNs = deadlineNs;
  }

  stop(): void {
    this.deadlineNs = -1;
  }

  /**
   * The timer's event fired. Returns true if the timer expired now; false for a stale event
   * (stopped, or re-armed later, in which case the event is pushed again for the new deadline).
   */
  fire(): boolean {
    this.eventId = -1;
    this.eventAtNs = Infinity;
    if (this.deadlineNs < 0) return false;
    if (this.sim.nowNs < this.deadlineNs) {
      this.eventId = this.sim.scheduleAt(this.deadlineNs, this.kind, this.arg);
      this.eventAtNs = this.deadlineNs;
      return false;
    }
    this.deadlineNs = -1;
    return true;
  }
}
