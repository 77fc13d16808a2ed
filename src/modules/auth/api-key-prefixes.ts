/*
 * The prefixes of the API key text, in a module of their own: the CLI's entry point reads them to
 * keep keys out of `ps` before anything heavier loads (src/cli/argv-secrets.ts).
 */

/** Prefix of a production key. */
export const LIVE_KEY_PREFIX = 'sqk_live_';
/** Prefix of a test key (same format; lets callers keep test traffic apart). */
export const TEST_KEY_PREFIX = 'sqk_test_';
