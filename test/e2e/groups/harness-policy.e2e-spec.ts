import { describeSuites } from '../../utils/e2e-suites';

/**
 * The harness's confinement, policy, limits, start-up checks and checks; its run lifecycle;
 * `superqode harness` (built CLI and in process).
 */
describeSuites([
  'harness-confinement',
  'harness-access-followups',
  'harness-policy',
  'harness-git-hardening',
  'harness-limits',
  'harness-startup-checks',
  'harness-model-warning',
  'harness-not-served',
  'harness-checks',
  'harness-lifecycle',
  'harness-cli',
  'harness-cli-templates',
]);
