import { describeSuites } from '../../utils/e2e-suites';

/** Replies that survive SIGKILL, store ownership leases, durability, store health. */
describeSuites([
  'reply-durability',
  'store-ownership',
  'durability',
  'store-health',
  'concurrent-start',
]);
