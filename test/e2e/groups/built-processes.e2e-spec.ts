import { describeSuites } from '../../utils/e2e-suites';

/** The built server and CLI as processes: banner, logs, .env, one container per command line. */
describeSuites(['operability', 'cli-container']);
