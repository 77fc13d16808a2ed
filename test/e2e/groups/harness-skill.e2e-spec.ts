import { describeSuites } from '../../utils/e2e-suites';

/** The harness skill served over A2A: runs, answers, approvals, follow-ups, streaming. */
describeSuites([
  'harness-skill',
  'harness-answer-parts',
  'harness-approval',
  'harness-approval-replies',
  'harness-followup-routing',
  'harness-run',
  'harness-stream-keepalive',
  'harness-tool-progress',
]);
