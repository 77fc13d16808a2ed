/**
 * Version of this agent's card (AgentCard.version), bumped by hand when the card's
 * content changes meaning. Independent of the npm package version.
 */
export const AGENT_CARD_VERSION = '1.0';

/** Well-known discovery paths: the A2A 1.0 path and the 0.3-era alias (A2A §8.2). */
export const AGENT_CARD_PATHS = [
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
] as const;

const CARD_PATHS: ReadonlySet<string> = new Set(AGENT_CARD_PATHS);

/** True when `path` (no query) is one of {@link AGENT_CARD_PATHS}. */
export function isAgentCardPath(path: string): boolean {
  return CARD_PATHS.has(path);
}

/** Path of the icon the card's `iconUrl` points at (served by this process, never gated). */
export const ICON_PATH = '/icon.svg';

/** A2A protocol versions and binding names as they appear in `supportedInterfaces`. */
export const PROTOCOL_V1 = '1.0';
export const PROTOCOL_V03 = '0.3';
export const BINDING_JSONRPC = 'JSONRPC';
export const BINDING_HTTP_JSON = 'HTTP+JSON';

/** Name of the bearer scheme in the card's `securitySchemes`. */
export const BEARER_SCHEME = 'bearer';
