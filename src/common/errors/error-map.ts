import {
  A2AError,
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  InvalidAgentResponseError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';
import { CLI_EXIT } from '../../cli/exit-codes';
import type { CliExitCode } from '../../cli/exit-codes';
import { ServePolicyError } from '../../config/a2a.config';
import { ConfigValidationError } from '../../config/config-errors';
import { ApiKeyError, ApiKeyErrorCode } from '../../modules/auth/api-key';
import { InvalidFlagError } from '../../modules/auth/commands/invalid-flag.error';
import {
  HarnessCapabilityError,
  HarnessError,
  HarnessErrorCode,
  HarnessProviderError,
  HarnessRunNotFoundError,
  HarnessRunNotResumableError,
  HarnessSessionBusyError,
  HarnessSessionNotFoundError,
} from '../../modules/harness/protocol/harness-protocol.errors';
import { RunAbort } from '../../modules/harness/core/run-outcome';
import { SandboxUnavailableError } from '../../modules/harness/sandbox/sandbox-command';
import {
  HarnessSpecError,
  HarnessSpecErrorCode,
} from '../../modules/harness/spec/harness-spec.errors';
import { RegexTimeoutError } from '../../modules/harness/tools/line-matcher';
import { PartContentTypeNotSupportedError } from './part-content-type.error';
import { TaskStoreClosedError } from '../../modules/tasks/task-store-closed.error';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * How one error class of ours (or an SDK A2A error we throw) surfaces on every binding.
 * The JSON-RPC and HTTP+JSON shapes are not written here: they are what the real renderers
 * (`renderJsonRpcError`, `renderRestError`) make of {@link a2a}, so the table cannot drift.
 */
export interface ErrorMapping {
  /** The class (most specific first in {@link ERROR_MAP}: the first match wins). */
  readonly type: ErrorClass;
  /** The class name, as listed in the README table. */
  readonly name: string;
  /** When it happens, for the README. */
  readonly situation: string;
  /** A representative instance (tests and the README table render it). */
  readonly sample: () => Error;
  /**
   * The A2A error it is answered with on the bindings (the message is kept: ours never hold a
   * secret); absent: the generic internal error (-32603 / 500, no details, logged once).
   */
  readonly a2a?: (err: Error) => A2AError;
  /** `superqode` exit code when a command fails with it. */
  readonly cliExit: CliExitCode;
}

const same = (err: Error) => err as A2AError;
const sdk = (
  type: new (message?: string) => A2AError,
  name: string,
  situation: string,
): ErrorMapping => ({
  type,
  name,
  situation,
  sample: () => new type(situation),
  a2a: same,
  cliExit: CLI_EXIT.failed,
});

/**
 * Every error class of ours (harness, API keys, configuration) and every SDK A2A error, mapped to
 * the A2A error the bindings render and to the CLI exit code. A unit test fails when a new error
 * class under `src/` (the client's own errors excepted) or a new SDK error is missing here, and
 * when the README's errors table differs from {@link errorsTable}.
 */
export const ERROR_MAP: readonly ErrorMapping[] = [
  {
    type: PartContentTypeNotSupportedError,
    name: 'PartContentTypeNotSupportedError',
    situation: 'a part or output mode the routed skill cannot take',
    sample: () => new PartContentTypeNotSupportedError('image/png is not accepted'),
    a2a: same,
    cliExit: CLI_EXIT.failed,
  },
  sdk(TaskNotFoundError, 'TaskNotFoundError', 'unknown task'),
  {
    type: TaskStoreClosedError,
    name: 'TaskStoreClosedError',
    situation: 'a task save after the store closed (shutdown)',
    sample: () => new TaskStoreClosedError(['t-1']),
    cliExit: CLI_EXIT.failed,
  },
  sdk(TaskNotCancelableError, 'TaskNotCancelableError', 'cancel of a finished task'),
  sdk(
    PushNotificationNotSupportedError,
    'PushNotificationNotSupportedError',
    'push notification config',
  ),
  sdk(UnsupportedOperationError, 'UnsupportedOperationError', 'operation not supported'),
  sdk(ContentTypeNotSupportedError, 'ContentTypeNotSupportedError', 'request media type refused'),
  sdk(InvalidAgentResponseError, 'InvalidAgentResponseError', 'a skill answered out of protocol'),
  sdk(
    ExtendedAgentCardNotConfiguredError,
    'ExtendedAgentCardNotConfiguredError',
    'extended card asked for',
  ),
  sdk(
    ExtensionSupportRequiredError,
    'ExtensionSupportRequiredError',
    'a required extension not declared',
  ),
  sdk(VersionNotSupportedError, 'VersionNotSupportedError', 'unsupported A2A-Version'),
  sdk(RequestMalformedError, 'RequestMalformedError', 'invalid params (parts, members, depth)'),
  {
    type: HarnessCapabilityError,
    name: 'HarnessCapabilityError',
    situation: 'the harness adapter lacks the capability (resume, cancel…)',
    sample: () => new HarnessCapabilityError('custom', 'resume'),
    a2a: (e) => new UnsupportedOperationError(e.message),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessSessionNotFoundError,
    name: 'HarnessSessionNotFoundError',
    situation: 'no harness session with this id',
    sample: () => new HarnessSessionNotFoundError('s-1'),
    a2a: (e) => new TaskNotFoundError(e.message),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessRunNotFoundError,
    name: 'HarnessRunNotFoundError',
    situation: 'no harness run with this id',
    sample: () => new HarnessRunNotFoundError('r-1'),
    a2a: (e) => new TaskNotFoundError(e.message),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessRunNotResumableError,
    name: 'HarnessRunNotResumableError',
    situation: 'approval reply to a run not waiting for one',
    sample: () => new HarnessRunNotResumableError('r-1', 'completed'),
    a2a: (e) => new UnsupportedOperationError(e.message),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessSessionBusyError,
    name: 'HarnessSessionBusyError',
    situation: 'a second turn while the session runs one',
    sample: () => new HarnessSessionBusyError('s-1', 'r-1', 'running'),
    a2a: (e) => new UnsupportedOperationError(e.message),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessProviderError,
    name: 'HarnessProviderError',
    situation: 'no usable model (provider, model, key, reachability)',
    sample: () => new HarnessProviderError('OPENAI_API_KEY is not set'),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessError,
    name: 'HarnessError',
    situation: 'any other harness failure',
    sample: () => new HarnessError(HarnessErrorCode.Provider, 'harness failure'),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: RunAbort,
    name: 'RunAbort',
    situation: 'a harness run cancelled, timed out or stopped (its abort reason)',
    sample: () => new RunAbort('timeout', 'timed out'),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: HarnessSpecError,
    name: 'HarnessSpecError',
    situation: 'a HarnessSpec file is unusable (at start)',
    sample: () => new HarnessSpecError(HarnessSpecErrorCode.Invalid, ['spec.yaml: x: bad']),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: SandboxUnavailableError,
    name: 'SandboxUnavailableError',
    situation: 'the spec asks for bwrap and it does not work here',
    sample: () => new SandboxUnavailableError('bwrap unavailable'),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: RegexTimeoutError,
    name: 'RegexTimeoutError',
    situation: "a tool's regular expression ran away (reported to the model)",
    sample: () => new RegexTimeoutError(),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: ApiKeyError,
    name: 'ApiKeyError',
    situation: '`a2a-keys issue` without a secret or with bad options',
    sample: () => new ApiKeyError(ApiKeyErrorCode.NoSecret, 'SUPERQODE_A2A_KEY_SECRET is not set'),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: InvalidFlagError,
    name: 'InvalidFlagError',
    situation: '`a2a-keys` flag value out of range',
    sample: () => new InvalidFlagError('--days must be a whole number'),
    cliExit: CLI_EXIT.usage,
  },
  {
    type: ConfigValidationError,
    name: 'ConfigValidationError',
    situation: 'invalid setting (names the flag or variable)',
    sample: () => new ConfigValidationError([{ variable: 'SUPERQODE_A2A_PORT', problem: 'x' }]),
    cliExit: CLI_EXIT.failed,
  },
  {
    type: ServePolicyError,
    name: 'ServePolicyError',
    situation: 'refused remote bind or harness access (at start)',
    sample: () => new ServePolicyError('Refusing to bind 0.0.0.0'),
    cliExit: CLI_EXIT.failed,
  },
];

/** The mapping of `err`'s class, or undefined (not an error of ours). */
export function mappingFor(err: unknown): ErrorMapping | undefined {
  return ERROR_MAP.find((m) => err instanceof m.type);
}

/** The A2A error the bindings answer `err` with, or undefined (generic internal error). */
export function toA2aError(err: unknown): A2AError | undefined {
  if (err instanceof A2AError) return err;
  const mapping = mappingFor(err);
  return mapping?.a2a?.(err as Error);
}

/** The CLI exit code for a command failing with `err` (1 for anything not mapped). */
export function cliExitCodeFor(err: unknown): CliExitCode {
  return mappingFor(err)?.cliExit ?? CLI_EXIT.failed;
}
