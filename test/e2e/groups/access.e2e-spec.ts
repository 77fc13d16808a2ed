import { describeSuites } from '../../utils/e2e-suites';

/** Who may call: auth, anonymous access, rate limits, browser guards, binds, the Agent Card. */
describeSuites([
  'auth',
  'auth-sweep',
  'anonymous-access',
  'rate-limits',
  'browser-guards',
  'remote-bind',
  'agent-card-publication',
  'agent-card-fast-path',
]);
