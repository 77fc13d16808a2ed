/** Request/message metadata key that names the skill explicitly (camelCase form). */
export const SKILL_METADATA_KEY = 'superqodeSkill';
/** Accepted snake_case alias of {@link SKILL_METADATA_KEY}. */
export const SKILL_METADATA_KEY_ALIAS = 'superqode_skill';

/** Injection token of the SDK `AgentExecutor` (the skill router). */
export const AGENT_EXECUTOR = Symbol('AGENT_EXECUTOR');

/**
 * `ServerCallContext.state` key set by the request handler on the streaming path
 * (SendStreamingMessage, 0.3 `message/stream`, REST `message:stream`): skills then publish
 * progress events instead of one finished Task.
 */
export const STREAMING_STATE_KEY = 'superqode.streaming';

/**
 * `ServerCallContext.state` key of the skill a SendMessage was routed to (with its message id):
 * set by the request handler's checks, read by the executor, so a turn is routed once.
 */
export const ROUTED_SKILL_STATE_KEY = 'superqode.routedSkill';
