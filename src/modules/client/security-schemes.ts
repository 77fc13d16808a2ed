/** Kind of a security scheme declared by an agent card. */
export type SchemeKind =
  'bearer' | 'basic' | 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mtls' | 'unknown';

/** OAuth 2 flow names this client can run. */
export type OAuthFlowName = 'clientCredentials' | 'deviceCode' | 'authorizationCode';

/** Endpoints and scopes of one OAuth 2 flow. */
export interface OAuthFlowInfo {
  tokenUrl?: string;
  authorizationUrl?: string;
  deviceAuthorizationUrl?: string;
  refreshUrl?: string;
  /** Scope names the flow lists. */
  scopes: string[];
}

/** One security scheme, normalised from either card shape (v1.0 proto-JSON or v0.3 JSON). */
export interface CardScheme {
  /** Key in `securitySchemes`. */
  name: string;
  kind: SchemeKind;
  description: string;
  /** apiKey: where the key goes. */
  location?: 'header' | 'query' | 'cookie';
  /** apiKey: header, query parameter or cookie name. */
  paramName?: string;
  /** http: the auth scheme word as written (`Bearer`, `basic`, `Digest`). */
  httpScheme?: string;
  /** oauth2: declared flows. */
  flows: Partial<Record<OAuthFlowName, OAuthFlowInfo>>;
  /** oauth2: RFC 8414 metadata URL; openIdConnect: the discovery URL. */
  metadataUrl?: string;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `{ httpAuthSecurityScheme: {...} }`, `{ scheme: { $case, value } }` or `{ type, ... }` → `[case, body]`. */
function unwrap(raw: Json): [string, Json] {
  const sdk = obj(raw.scheme);
  if (sdk && typeof sdk.$case === 'string') return [sdk.$case, obj(sdk.value) ?? {}];
  const type = str(raw.type);
  if (type) return [type, raw];
  const key = Object.keys(raw).find((k) => k.endsWith('SecurityScheme'));
  return key ? [key, obj(raw[key]) ?? {}] : ['unknown', raw];
}

function flowInfo(raw: Json | undefined): OAuthFlowInfo | undefined {
  if (!raw) return undefined;
  return {
    tokenUrl: str(raw.tokenUrl) || undefined,
    authorizationUrl: str(raw.authorizationUrl) || undefined,
    deviceAuthorizationUrl: str(raw.deviceAuthorizationUrl) || undefined,
    refreshUrl: str(raw.refreshUrl) || undefined,
    scopes: Object.keys(obj(raw.scopes) ?? {}),
  };
}

function flows(raw: Json | undefined): CardScheme['flows'] {
  if (!raw) return {};
  const sdk = obj(raw.flow);
  if (sdk && typeof sdk.$case === 'string') return { [sdk.$case]: flowInfo(obj(sdk.value)) };
  const out: CardScheme['flows'] = {};
  for (const name of ['clientCredentials', 'deviceCode', 'authorizationCode'] as const) {
    const f = flowInfo(obj(raw[name]));
    if (f) out[name] = f;
  }
  return out;
}

function kindOf(kase: string, body: Json): Omit<CardScheme, 'name' | 'description' | 'flows'> {
  switch (kase) {
    case 'http':
    case 'httpAuthSecurityScheme': {
      const word = str(body.scheme);
      const kind: SchemeKind = /^bearer$/i.test(word)
        ? 'bearer'
        : /^basic$/i.test(word)
          ? 'basic'
          : 'http';
      return { kind, httpScheme: word };
    }
    case 'apiKey':
    case 'apiKeySecurityScheme': {
      const where = (str(body.location) || str(body.in)).toLowerCase();
      const location = where === 'query' || where === 'cookie' ? where : 'header';
      return { kind: 'apiKey', location, paramName: str(body.name) || 'X-API-Key' };
    }
    case 'oauth2':
    case 'oauth2SecurityScheme':
      return { kind: 'oauth2', metadataUrl: str(body.oauth2MetadataUrl) || undefined };
    case 'openIdConnect':
    case 'openIdConnectSecurityScheme':
      return { kind: 'openIdConnect', metadataUrl: str(body.openIdConnectUrl) || undefined };
    case 'mutualTLS':
    case 'mtlsSecurityScheme':
      return { kind: 'mtls' };
    default:
      return { kind: 'unknown' };
  }
}

/**
 * The card's `securitySchemes`, normalised. Accepts the v1.0 proto-JSON shape
 * (`{ httpAuthSecurityScheme: { scheme: 'Bearer' } }`), the SDK's in-memory shape
 * (`{ scheme: { $case, value } }`) and the v0.3 shape (`{ type: 'http', scheme: 'bearer' }`).
 * @see A2A specification §5.5.3 (SecurityScheme); OpenAPI 3.1 Security Scheme Object.
 */
export function parseSchemes(card: Json): CardScheme[] {
  const schemes = obj(card.securitySchemes) ?? {};
  return Object.entries(schemes).map(([name, raw]) => {
    const [kase, body] = unwrap(obj(raw) ?? {});
    return {
      name,
      description: str(body.description),
      flows: flows(obj(body.flows)),
      ...kindOf(kase, body),
    };
  });
}

/**
 * Alternatives of required scheme names: any one inner list satisfies the card. Reads v1.0
 * `securityRequirements: [{ schemes: { name: { list } } }]` and v0.3 `security: [{ name: [] }]`.
 * Empty when the card requires nothing.
 */
export function requiredSchemes(card: Json): string[][] {
  const v1 = Array.isArray(card.securityRequirements) ? card.securityRequirements : [];
  if (v1.length) return v1.map((r: Json) => Object.keys(obj(obj(r)?.schemes) ?? {}));
  const v03 = Array.isArray(card.security) ? card.security : [];
  return v03.map((r: Json) => Object.keys(obj(r) ?? {}));
}

/** One-line description of a scheme for traces: `apikey: apiKey in query "api_key"`. */
export function describeScheme(s: CardScheme): string {
  switch (s.kind) {
    case 'apiKey':
      return `${s.name}: API key in ${s.location} "${s.paramName}"`;
    case 'bearer':
    case 'basic':
    case 'http':
      return `${s.name}: HTTP ${s.httpScheme}`;
    case 'oauth2':
      return `${s.name}: OAuth 2 (${Object.keys(s.flows).join(', ') || 'no flows'}${s.metadataUrl ? `; metadata ${s.metadataUrl}` : ''})`;
    case 'openIdConnect':
      return `${s.name}: OpenID Connect (${s.metadataUrl ?? 'no discovery URL'})`;
    case 'mtls':
      return `${s.name}: mutual TLS`;
    default:
      return `${s.name}: unrecognised scheme`;
  }
}
