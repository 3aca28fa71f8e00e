/**
 * The network's own event kinds (a packet arriving at the far end of a link, a held-packet link
 * finishing a transmission). The simulator knows only (kind, arg) pairs; src/packet/events.ts numbers
 * the TCP timers' and the run's kinds around these and dispatches all of them (PacketEvents), so the
 * network needs nothing from the packet engine above it.
 */
/** A packet reached the far end of the link at its current hop (`arg`: packet id). */
export const EV_ARRIVE = 0;
/** A link whose discipline holds its packets (CoDel, FQ-CoDel) finished a transmission: dequeue the next (`arg`: link id). */
export const EV_TX_END = 6;
