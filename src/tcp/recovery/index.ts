import { NewRenoRecovery, RenoRecovery } from './reno.js';
import { SackClassicRecovery, SackPrrRecovery } from './sack.js';
import { TahoeRecovery } from './tahoe.js';
import type { LossRecovery, RecoveryName } from './types.js';

export { RECOVERY_NAMES, type AckEvent, type LossRecovery, type RecoveryContext, type RecoveryName } from './types.js';

/** The strategy a connection runs, from the algorithm's recovery style and the scenario's SACK and recovery settings. */
export function recoveryName(ccRecovery: 'none' | 'reno' | 'newreno', sack: boolean, policy: 'classic' | 'prr'): RecoveryName {
  if (ccRecovery === 'none') return 'tahoe';
  if (sack) return policy === 'prr' ? 'sack-prr' : 'sack-classic';
  return ccRecovery;
}

/** @param partialAckTimer SACK recovery only: which partial ACKs restart the timer (see SackClassicRecovery). */
export function createRecovery(name: RecoveryName, sack: boolean, partialAckTimer: 'every' | 'first' = 'every'): LossRecovery {
  switch (name) {
    case 'tahoe':
      return new TahoeRecovery(sack);
    case 'reno':
      return new RenoRecovery();
    case 'newreno':
      return new NewRenoRecovery();
    case 'sack-classic':
      return new SackClassicRecovery(partialAckTimer);
    case 'sack-prr':
      return new SackPrrRecovery(partialAckTimer);
  }
}
