import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { A2aHttpException } from '../../common/errors/http-rejections';

/** `ServerCallContext.state` key of a skill-access refusal raised while handling the request. */
const REFUSAL_KEY = 'superqode.skillAccessRefusal';

/**
 * Records a 401/403 skill-access refusal on the call context and returns it (to throw).
 * The SDK's JSON-RPC transport handlers turn any error thrown by `sendMessage` into a -32603
 * envelope; the JSON-RPC controller reads the refusal back with {@link takeSkillAccessRefusal}
 * to answer with the HTTP status instead (issue #12).
 */
export function rememberSkillAccessRefusal(
  context: ServerCallContext,
  refusal: A2aHttpException,
): A2aHttpException {
  context.state.set(REFUSAL_KEY, refusal);
  return refusal;
}

/** The refusal recorded for this request, if any (removed from the context). */
export function takeSkillAccessRefusal(context: ServerCallContext): A2aHttpException | undefined {
  const refusal = context.state.get(REFUSAL_KEY) as A2aHttpException | undefined;
  context.state.delete(REFUSAL_KEY);
  return refusal;
}
