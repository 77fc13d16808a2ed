import { describeSuites } from '../../utils/e2e-suites';

/** Crash recovery; who may call: auth, anonymous access, rate limits, browser guards, binds, the card and SendMessage served before routing. */
describeSuites([
  'crash-recovery',
  'auth',
  'auth-sweep',
  'anonymous-access',
  'rate-limits',
  'browser-guards',
  'remote-bind',
  'agent-card-fast-path',
  'send-message-fast-path',
]);
