import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AgentCard } from '@a2a-js/sdk';
import type { AgentInterface } from '@a2a-js/sdk';
import type { ConfigType } from '@nestjs/config';
import { accessConfig, cardConfig, serverConfig } from '../../config/namespaces';
import { Clock } from '../../common/runtime/clock';
import { SkillRouter } from '../skills/skill-router.service';
import {
  AGENT_CARD_VERSION,
  BEARER_SCHEME,
  BINDING_HTTP_JSON,
  BINDING_JSONRPC,
  ICON_PATH,
  PROTOCOL_V03,
  PROTOCOL_V1,
} from './agent-card.constants';

/** One serialised card variant: exact bytes and their strong validator. */
export interface CardVariant {
  /** UTF-8 JSON document. */
  readonly body: string;
  /** Strong ETag: quoted first 32 hex chars of SHA-256 over `body`. */
  readonly etag: string;
}

/**
 * Builds this deployment's Agent Card once per process and serves its two variants.
 * - strict: the A2A 1.0 card (proto-JSON of `AgentCard`), for requests with `A2A-Version: 1.0`;
 * - dual: the same document plus the 0.3 fields `url`, `preferredTransport`, `protocolVersion`
 *   for requests without the header (0.3 clients, A2A §3.6.2).
 * Interfaces are advertised in the order JSON-RPC 1.0, JSON-RPC 0.3 (when served), HTTP+JSON 1.0,
 * all at the public base URL.
 * @see A2A specification §4.4.1 AgentCard, §8.2 discovery; SDK `toCompatAgentCard` for 0.3 fields.
 */
@Injectable()
export class AgentCardService implements OnApplicationBootstrap {
  private built: { card: AgentCard; strict: CardVariant; dual: CardVariant } | undefined;
  /** When the bytes were built, truncated to whole seconds (HTTP-date precision). */
  readonly lastModified: Date;
  /** {@link lastModified} as an HTTP-date (RFC 9110 §5.6.7), formatted once. */
  readonly lastModifiedHttp: string;
  /** The card's capabilities: fixed, known before any skill (the SDK handler reads them at construction). */
  readonly capabilities: AgentCard['capabilities'] = {
    streaming: true,
    pushNotifications: false,
    extensions: [],
    extendedAgentCard: false,
  };

  constructor(
    @Inject(cardConfig.KEY) private readonly cardSettings: ConfigType<typeof cardConfig>,
    @Inject(serverConfig.KEY) private readonly server: ConfigType<typeof serverConfig>,
    @Inject(accessConfig.KEY) private readonly access: ConfigType<typeof accessConfig>,
    private readonly skills: SkillRouter,
    clock: Clock,
  ) {
    this.lastModified = new Date(Math.floor(clock.now().getTime() / 1000) * 1000);
    this.lastModifiedHttp = this.lastModified.toUTCString();
  }

  /** Builds the card at start, so a faulty skill registration fails the boot, not a request. */
  onApplicationBootstrap(): void {
    this.variants();
  }

  /**
   * The card as the SDK's `AgentCard` object. Built once, on the first call: skills are
   * discovered after every module is instantiated (see `SkillRegistry`), so call it from a
   * lifecycle hook or a request, never from a constructor or factory.
   */
  card(): AgentCard {
    return this.variants().card;
  }

  /**
   * The variant for a request.
   * @param requestedVersion - The request's A2A-Version (normalised major.minor) or undefined.
   */
  variantFor(requestedVersion: string | undefined): CardVariant {
    const { strict, dual } = this.variants();
    return requestedVersion !== undefined && requestedVersion !== PROTOCOL_V03 ? strict : dual;
  }

  private variants(): { card: AgentCard; strict: CardVariant; dual: CardVariant } {
    if (this.built) return this.built;
    const card = this.build(this.skills);
    const json = AgentCard.toJSON(card) as Record<string, unknown>;
    const strict = variant(json);
    const dual = this.cardSettings.legacyV03
      ? variant(withLegacyFields(json, this.server.publicUrl))
      : strict;
    this.built = { card, strict, dual };
    return this.built;
  }

  /**
   * Bearer auth is advertised once a credential can be presented (operator token or API keys);
   * it is required (`securityRequirements`) only when anonymous access is off. No secret appears.
   */
  private security(): Pick<AgentCard, 'securitySchemes' | 'securityRequirements'> {
    if (!this.access.credentialsConfigured)
      return { securitySchemes: {}, securityRequirements: [] };
    const description = this.access.allowAnonymous
      ? 'Optional: a signed API key (sqk_live_…) or operator token raises rate limits; without one the caller is anonymous.'
      : 'Required: a signed API key (sqk_live_…) or the operator token.';
    const scheme = {
      $case: 'httpAuthSecurityScheme' as const,
      value: { description, scheme: 'Bearer', bearerFormat: 'sqk API key' },
    };
    return {
      securitySchemes: { [BEARER_SCHEME]: { scheme } },
      securityRequirements: this.access.allowAnonymous
        ? []
        : [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    };
  }

  private build(skills: SkillRouter): AgentCard {
    const url = this.server.publicUrl;
    const iface = (protocolBinding: string, protocolVersion: string): AgentInterface => ({
      url,
      protocolBinding,
      protocolVersion,
      tenant: '',
    });
    const supportedInterfaces = [iface(BINDING_JSONRPC, PROTOCOL_V1)];
    if (this.cardSettings.legacyV03) supportedInterfaces.push(iface(BINDING_JSONRPC, PROTOCOL_V03));
    supportedInterfaces.push(iface(BINDING_HTTP_JSON, PROTOCOL_V1));
    const served = skills.served().map((s) => s.card());
    return {
      name: 'SuperQode',
      description:
        'SuperQode as an A2A agent: recommends coding-agent harnesses from the SuperQode Hub ' +
        'catalogue and runs SuperQode harnesses.',
      supportedInterfaces,
      provider: {
        organization: 'Superagentic AI',
        url: 'https://github.com/SuperagenticAI/superqode',
      },
      version: AGENT_CARD_VERSION,
      documentationUrl: 'https://docs.superqode.dev/',
      iconUrl: `${url}${ICON_PATH}`,
      capabilities: this.capabilities,
      ...this.security(),
      // Agent-wide defaults: what some served skill takes or gives (each skill lists its own).
      defaultInputModes: unionOf(served.map((s) => s.inputModes)),
      defaultOutputModes: unionOf(served.map((s) => s.outputModes)),
      skills: served,
      signatures: [],
    };
  }
}

/** Distinct values of several lists, in first-seen order. */
function unionOf(lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())];
}

export { BEARER_SCHEME };

function variant(doc: Record<string, unknown>): CardVariant {
  const body = JSON.stringify(doc);
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  return { body, etag };
}

/**
 * Adds the A2A 0.3 top-level fields; every 1.0 field stays as it is. Security schemes also get
 * their 0.3 (OpenAPI-style) members beside the 1.0 ones, and `security` mirrors
 * `securityRequirements`, so a 0.3 client reads the same document (SDK `toCompatAgentCard` mapping).
 */
function withLegacyFields(strict: Record<string, unknown>, url: string): Record<string, unknown> {
  const dual: Record<string, unknown> = {
    ...strict,
    url,
    preferredTransport: BINDING_JSONRPC,
    protocolVersion: PROTOCOL_V03,
  };
  const schemes = strict.securitySchemes as
    Record<string, { httpAuthSecurityScheme?: Record<string, string> }> | undefined;
  if (schemes && Object.keys(schemes).length > 0) {
    dual.securitySchemes = Object.fromEntries(
      Object.entries(schemes).map(([name, s]) => {
        const http = s.httpAuthSecurityScheme;
        const v03 = http
          ? {
              type: 'http',
              scheme: http.scheme.toLowerCase(),
              bearerFormat: http.bearerFormat,
              description: http.description,
            }
          : {};
        return [name, { ...s, ...v03 }];
      }),
    );
  }
  const requirements = strict.securityRequirements as SecurityRequirementsJson | undefined;
  if (requirements?.length) dual.security = legacySecurity(requirements);
  const skills = strict.skills as { securityRequirements?: SecurityRequirementsJson }[] | undefined;
  if (skills?.some((s) => s.securityRequirements?.length)) {
    dual.skills = skills.map((s) =>
      s.securityRequirements?.length
        ? { ...s, security: legacySecurity(s.securityRequirements) }
        : s,
    );
  }
  return dual;
}

type SecurityRequirementsJson = { schemes: Record<string, { list?: string[] }> }[];

/** 1.0 `securityRequirements` (proto-JSON) → 0.3 `security` (OpenAPI-style scheme → scopes maps). */
function legacySecurity(requirements: SecurityRequirementsJson): Record<string, string[]>[] {
  return requirements.map((r) =>
    Object.fromEntries(Object.entries(r.schemes).map(([k, v]) => [k, v.list ?? []])),
  );
}
