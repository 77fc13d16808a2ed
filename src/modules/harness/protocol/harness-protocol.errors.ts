/** Codes of the errors harness services throw (mapped to A2A errors by the transport layer). */
export enum HarnessErrorCode {
  CapabilityUnsupported = 'harness_capability_unsupported',
  SessionNotFound = 'harness_session_not_found',
  RunNotFound = 'harness_run_not_found',
  RunNotResumable = 'harness_run_not_resumable',
  SessionBusy = 'harness_session_busy',
  Provider = 'harness_provider',
}

/** Base of every harness error; `code` says which. */
export class HarnessError extends Error {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Capabilities an adapter may or may not have (`HarnessAdapterDescriptor.capabilities`). */
export type HarnessCapability = 'streaming' | 'resume' | 'cancel' | 'approvals' | 'tools' | 'usage';

/** An adapter was asked for an operation its descriptor does not advertise. */
export class HarnessCapabilityError extends HarnessError {
  constructor(
    readonly adapterId: string,
    readonly capability: HarnessCapability,
  ) {
    super(
      HarnessErrorCode.CapabilityUnsupported,
      `harness adapter '${adapterId}' does not support ${capability} ` +
        `(capabilities.${capability} is false)`,
    );
  }
}

/** No session with this id in the ledger. */
export class HarnessSessionNotFoundError extends HarnessError {
  constructor(readonly sessionId: string) {
    super(HarnessErrorCode.SessionNotFound, `harness session ${sessionId} not found`);
  }
}

/** No run with this id in the ledger. */
export class HarnessRunNotFoundError extends HarnessError {
  constructor(readonly runId: string) {
    super(HarnessErrorCode.RunNotFound, `harness run ${runId} not found`);
  }
}

/** `resume` on a run that is not waiting for an approval. */
export class HarnessRunNotResumableError extends HarnessError {
  constructor(
    readonly runId: string,
    readonly status: string,
  ) {
    super(
      HarnessErrorCode.RunNotResumable,
      `harness run ${runId} is ${status}; only a run that needs approval can be resumed`,
    );
  }
}

/** A session already has a run in progress or one waiting for approval. */
export class HarnessSessionBusyError extends HarnessError {
  constructor(
    readonly sessionId: string,
    readonly runId: string,
    readonly status: string,
  ) {
    super(
      HarnessErrorCode.SessionBusy,
      `harness session ${sessionId} has run ${runId} ${status.replace('_', ' ')}; ` +
        (status === 'needs_approval' ? 'resume or cancel it first' : 'wait for it or cancel it'),
    );
  }
}

/**
 * No usable model: unknown provider, missing model or base URL, missing API key, provider
 * unreachable or refusing. The message says what to set or check; it never contains a key.
 */
export class HarnessProviderError extends HarnessError {
  constructor(message: string) {
    super(HarnessErrorCode.Provider, message);
  }
}
