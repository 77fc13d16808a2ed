/** Injection token of the A2A protocol core: an SDK `A2ARequestHandler` (`SuperqodeRequestHandler`). */
export const A2A_REQUEST_HANDLER = Symbol('A2A_REQUEST_HANDLER');
