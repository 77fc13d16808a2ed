/**
 * A task save or commit that reached the store after its data source was closed (the server is
 * shutting down and an execution that ignored cancellation still publishes). The write is not
 * made; the store logs the first one at WARN and no later one, instead of an ERROR per save.
 * Answered as the generic internal error on the bindings (no request should reach a closing
 * server: Fastify stops accepting before the stores close).
 */
export class TaskStoreClosedError extends Error {
  constructor(taskIds: readonly string[], options?: ErrorOptions) {
    super(
      `Task store is closed (the server is shutting down): ${taskIds.length} task save(s) not stored`,
      options,
    );
    this.name = 'TaskStoreClosedError';
  }
}
