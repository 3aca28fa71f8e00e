/** Per-flow data-packet accounting in the network (for the conservation check and loss rates). */
export class FlowCounters {
  dataBytesInNetwork = 0;
  dataSegmentsInNetwork = 0;
  queueDropSegments = 0;
  queueDropBytes = 0;
  randomDropSegments = 0;
  randomDropBytes = 0;
  ackQueueDrops = 0;
  ackRandomDrops = 0;
  /** Data segments that left the network carrying CE: delivered to the receiver, or dropped after a queue marked them. */
  ceDeliveredSegments = 0;
  ceDroppedSegments = 0;
}
