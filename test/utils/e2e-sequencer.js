const { basename } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;

/**
 * Seconds each e2e group file (test/e2e/groups) took with jest's 3 workers on a 2-core machine
 * (2026-12-07, averages of two runs). Only their order matters: a group missing here, or a stale
 * figure, changes which file starts first, not what runs.
 */
const GROUP_SECONDS = {
  'client-oauth': 19,
  'harness-policy': 18,
  tui: 17,
  cluster: 16,
  protocol: 16,
  operability: 16,
  durability: 15,
  'built-processes': 14,
  'harness-sandbox': 13,
  'harness-skill': 13,
  client: 10,
  access: 11,
};

/**
 * Jest's sequencer (failed files first, then the longest by recorded duration), with the figures
 * above standing in for an e2e group's duration when jest has none recorded: with a cold cache, as
 * in CI, jest would order files by size, and the group files' size says nothing about their time
 * (the 12 groups ran the longest last and left two workers idle for 10-16 s; issue #13).
 */
class E2eSequencer extends TestSequencer {
  time(test) {
    const recorded = super.time(test);
    if (recorded !== undefined) return recorded;
    const seconds = GROUP_SECONDS[basename(test.path, '.e2e-spec.ts')];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = E2eSequencer;
