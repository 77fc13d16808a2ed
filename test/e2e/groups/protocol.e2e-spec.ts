import { describeSuites } from '../../utils/e2e-suites';

/** The A2A bindings: transports, the SDK client, interop, streaming, request shapes, skills. */
describeSuites([
  'transport-hardening',
  'sdk-client',
  'client-interop',
  'client-server',
  'streaming',
  'request-member-types',
  'legacy-sse-errors',
  'content-modes',
  'shortlist-streaming',
  'shortlist-understanding',
  'skill-routing-once',
  'readme-questions',
  'custom-skill',
]);
