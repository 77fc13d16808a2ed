import { configNamespace } from './config-namespace';

/** What the Agent Card advertises besides skills and security (namespace `card`). */
export interface CardSettings {
  /** Serve and advertise the A2A 0.3 JSON-RPC interface. */
  readonly legacyV03: boolean;
  /** Card `Cache-Control: max-age`, seconds (0 = no-cache). */
  readonly cacheMaxAgeS: number;
}

/** `card`: the 0.3 interface and the card's cache lifetime. */
export const cardConfig = configNamespace('card', (env): CardSettings => ({
  legacyV03: env.SUPERQODE_A2A_LEGACY_V03,
  cacheMaxAgeS: env.SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S,
}));

/** The shortlist skill (namespace `shortlist`). */
export interface ShortlistSettings {
  /** Serve the harness-shortlist skill. */
  readonly enabled: boolean;
  /** Read keyed/operator shortlist requests with the model (else the keyword parser only). */
  readonly understandRequests: boolean;
  /** Model reading budget, ms. */
  readonly understandTimeoutMs: number;
}

/** `shortlist`: whether the skill is served and how requests are read. */
export const shortlistConfig = configNamespace('shortlist', (env): ShortlistSettings => ({
  enabled: env.SUPERQODE_A2A_SHORTLIST_ENABLED,
  understandRequests: env.SUPERQODE_A2A_UNDERSTAND_REQUESTS,
  understandTimeoutMs: env.SUPERQODE_A2A_UNDERSTAND_TIMEOUT_MS,
}));
