import { describeSuites } from '../../utils/e2e-suites';

/** The A2A bindings: transports, streaming, request shapes, the shortlist skill and custom skills. */
describeSuites([
  'transport-hardening',
  'streaming',
  'request-member-types',
  'legacy-sse-errors',
  'sdk-client',
  'content-modes',
  'shortlist-streaming',
  'shortlist-understanding',
  'skill-routing-once',
  'readme-questions',
  'custom-skill',
]);
