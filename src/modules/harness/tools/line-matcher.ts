import vm from 'node:vm';

/** How long one file's matching may run before the regex is considered runaway (ms). */
export const REGEX_TIMEOUT_MS = 1000;

/** A regular expression ran longer than {@link REGEX_TIMEOUT_MS} on one file. */
export class RegexTimeoutError extends Error {
  constructor() {
    super(`regular expression took longer than ${REGEX_TIMEOUT_MS} ms; simplify it`);
    this.name = RegexTimeoutError.name;
  }
}

const MATCH_SCRIPT = new vm.Script(`(() => {
  const hits = [];
  const lines = text.split('\\n');
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    if (re.test(lines[i])) hits.push({ line: i + 1, text: lines[i] });
  }
  return hits;
})()`);

/**
 * Matches a model-supplied regex line by line inside a `vm` context with a timeout: V8 can
 * interrupt a backtracking regex there, so a pattern like `(a+)+$` cannot freeze the server's
 * event loop.
 */
export class LineMatcher {
  private readonly context: vm.Context;

  /**
   * @param pattern - JavaScript regular expression source, compiled without flags.
   * @throws {SyntaxError} The pattern is not a valid regular expression.
   */
  constructor(pattern: string) {
    this.context = vm.createContext({ re: new RegExp(pattern), text: '', max: 0 });
  }

  /**
   * Matching lines of `text` (split on `\n`), in order.
   * @param text - File content.
   * @param max - Stop after this many matches.
   * @returns Line numbers (1-based) and line text.
   * @throws {RegexTimeoutError} Matching took longer than {@link REGEX_TIMEOUT_MS}.
   */
  match(text: string, max: number): { line: number; text: string }[] {
    this.context.text = text;
    this.context.max = max;
    try {
      return MATCH_SCRIPT.runInContext(this.context, { timeout: REGEX_TIMEOUT_MS }) as {
        line: number;
        text: string;
      }[];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new RegexTimeoutError();
      }
      throw error;
    } finally {
      this.context.text = '';
    }
  }
}
