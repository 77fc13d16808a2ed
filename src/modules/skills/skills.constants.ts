/** Injection token: the list of {@link A2aSkill} implementations registered by feature modules. */
export const A2A_SKILLS = Symbol('A2A_SKILLS');

/** Request/message metadata key that names the skill explicitly (camelCase form). */
export const SKILL_METADATA_KEY = 'superqodeSkill';
/** Accepted snake_case alias of {@link SKILL_METADATA_KEY}. */
export const SKILL_METADATA_KEY_ALIAS = 'superqode_skill';

/** Injection token of the SDK `AgentExecutor` (the skill router). */
export const AGENT_EXECUTOR = Symbol('AGENT_EXECUTOR');
