import { describeSuites } from '../../utils/e2e-suites';

/** The CLI: usage errors, one container per command line, keys, `serve a2a`, the TUI. */
describeSuites(['tui', 'cli-container', 'cli-keys', 'cli-serve', 'cli-usage']);
