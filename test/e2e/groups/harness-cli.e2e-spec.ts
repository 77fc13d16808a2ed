import { describeSuites } from '../../utils/e2e-suites';

/** The harness from the CLI and its ledger: runs, templates, checks, run lifecycle. */
describeSuites([
  'harness-cli',
  'harness-cli-templates',
  'harness-ledger',
  'harness-ledger-ownership',
  'harness-run-log',
  'harness-checks',
  'harness-lifecycle',
]);
