import { describeSuites } from '../../utils/e2e-suites';

/** The TUI in tmux, and the CLI's usage errors, `serve a2a` and key commands. */
describeSuites(['tui', 'cli-usage', 'cli-serve', 'cli-keys']);
