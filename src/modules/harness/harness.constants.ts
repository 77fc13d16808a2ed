/** Name of the TypeORM data source of the harness ledger (`@InjectDataSource(HARNESS_CONNECTION)`). */
export const HARNESS_CONNECTION = 'harness';

/** Ledger table of the harness data source's TypeORM migrations. */
export const HARNESS_MIGRATIONS_TABLE = 'harness_migrations';

/** Default SQLite file of the harness ledger, relative to the working directory of the process. */
export const HARNESS_DEFAULT_STORE_PATH = '.superqode/a2a/harness.sqlite3';

/** Injection token of the {@link HarnessLedgerModule} options (`HarnessLedgerModuleOptions`). */
export const HARNESS_LEDGER_OPTIONS = Symbol('HARNESS_LEDGER_OPTIONS');

/** Injection token of the {@link HarnessModule} options (`HarnessModuleOptions`). */
export const HARNESS_MODULE_OPTIONS = Symbol('HARNESS_MODULE_OPTIONS');

/** Characters of a prompt kept in `runs.prompt_preview`. */
export const PROMPT_PREVIEW_CHARS = 240;

/** Bytes of one instruction file (`context.instruction_files`) added to the system prompt. */
export const MAX_INSTRUCTION_FILE_BYTES = 64 * 1024;

/** Files compared by the change tracker outside a git checkout (beyond: no artifact list). */
export const MAX_TRACKED_FILES = 20_000;
