import { describeSuites } from '../../utils/e2e-suites';

/** The client CLI against our server and fake agents: conversations, discovery, SSE, interop. */
describeSuites([
  'client-cli',
  'client-conversation',
  'client-interop',
  'client-conversation-tty',
  'client-conformance',
  'client-discovery',
  'client-sse',
  'client-server',
]);
