/** Why a HarnessSpec could not be loaded. */
export enum HarnessSpecErrorCode {
  /** The file could not be read. */
  Unreadable = 'HARNESS_SPEC_UNREADABLE',
  /** The text is not valid YAML/JSON or its top level is not a mapping. */
  Syntax = 'HARNESS_SPEC_SYNTAX',
  /** `inherits`/`extends` is malformed, cyclic, too deep or names a missing file. */
  Inheritance = 'HARNESS_SPEC_INHERITANCE',
  /** The merged spec does not satisfy the schema (unknown key, wrong type, bad value). */
  Invalid = 'HARNESS_SPEC_INVALID',
}

/**
 * A HarnessSpec file is unusable. The message has one line per problem, each naming the file,
 * the field path and what was expected, e.g.
 * `coding.yaml: execution_policy.allow_wirte: unrecognized key` or
 * `coding.yaml: model_policy.max_iterations: expected number, received string`.
 * @see ./harness-spec.loader.ts
 */
export class HarnessSpecError extends Error {
  /** The same lines as the message, one problem each. */
  readonly problems: readonly string[];

  /**
   * @param code - The failure class.
   * @param problems - One or more `<file>: <field path>: <expected>` lines.
   */
  constructor(
    readonly code: HarnessSpecErrorCode,
    problems: readonly string[],
  ) {
    super(problems.join('\n'));
    this.name = HarnessSpecError.name;
    this.problems = problems;
  }
}
