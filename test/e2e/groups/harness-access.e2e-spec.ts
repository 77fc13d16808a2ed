import { describeSuites } from '../../utils/e2e-suites';

/** The harness skill: who may run it, its sandbox, confinement, policy, limits and start-up checks. */
describeSuites([
  'harness-access',
  'harness-access-followups',
  'harness-confinement',
  'harness-sandbox',
  'harness-remote-sandbox',
  'harness-policy',
  'harness-git-hardening',
  'harness-limits',
  'harness-startup-checks',
  'harness-model-warning',
  'harness-not-served',
]);
