import { describeSuites } from '../../utils/e2e-suites';

/** `npm run start:dev`, Agent Card publication, the examples, embedding, logging and metrics. */
describeSuites([
  'start-dev',
  'agent-card-publication',
  'examples',
  'embedding',
  'logging',
  'metrics',
  'heap-growth',
]);
