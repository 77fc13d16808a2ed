import { describeSuites } from '../../utils/e2e-suites';

/** Running the server: `start:dev`, logs, banner, metrics, .env, the examples and embedding. */
describeSuites(['start-dev', 'operability', 'examples', 'embedding', 'logging', 'metrics']);
