import { describeSuites } from '../../utils/e2e-suites';

/** The harness skill over A2A: runs, answers, approvals, follow-ups, streaming, the ledger. */
describeSuites([
  'harness-skill',
  'harness-answer-parts',
  'harness-approval',
  'harness-approval-replies',
  'harness-followup-routing',
  'harness-run',
  'harness-stream-keepalive',
  'harness-tool-progress',
  'harness-ledger',
  'harness-ledger-ownership',
  'harness-run-log',
]);
