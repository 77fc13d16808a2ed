import { describeSuites } from '../../utils/e2e-suites';

/** Several instances on PostgreSQL and Redis: cluster, rate limits, the PostgreSQL store, failover. */
describeSuites(['cluster', 'cluster-rate-limits', 'postgres-store', 'postgres-failover']);
