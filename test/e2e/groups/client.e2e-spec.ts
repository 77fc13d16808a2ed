import { describeSuites } from '../../utils/e2e-suites';

/** The client CLI: commands, conversations (also on a TTY), conformance, discovery, SSE, mTLS. */
describeSuites([
  'client-cli',
  'client-conversation',
  'client-conversation-tty',
  'client-conformance',
  'client-discovery',
  'client-sse',
  'client-mtls',
]);
