import { describeSuites } from '../../utils/e2e-suites';

/** Stores and restarts: ownership leases, store health, crash recovery, durable replies. */
describeSuites([
  'store-ownership',
  'store-health',
  'crash-recovery',
  'reply-durability',
  'durability',
]);
