import { A2AClientError, A2AClientErrorCode } from './client.errors';

/** The protocol bindings and versions this client speaks, in no particular order. */
export type SpokenInterface = 'JSONRPC 1.0' | 'JSONRPC 0.3' | 'HTTP+JSON 1.0';

/** Every interface this client speaks. */
export const SPOKEN_INTERFACES: readonly SpokenInterface[] = [
  'JSONRPC 1.0',
  'JSONRPC 0.3',
  'HTTP+JSON 1.0',
];

/** One interface entry as the card lists it (either card shape). */
export interface CardInterface {
  /** Endpoint URL. */
  url: string;
  /** `JSONRPC`, `HTTP+JSON`, `GRPC`, ... as written (case kept). */
  binding: string;
  /** Protocol version as written (`1.0`, `0.3`, `0.3.0`). */
  version: string;
  /** Tenant to send with every request ('' = none). */
  tenant: string;
  /** Where it came from: `supportedInterfaces[i]`, `url` (0.3 preferred) or `additionalInterfaces[i]`. */
  source: string;
}

/** Whether one entry is usable, and why (not). */
export interface InterfaceVerdict {
  entry: CardInterface;
  /** The spoken interface it maps to, when usable. */
  spoken?: SpokenInterface;
  /** Reason in a few words (`speaks JSONRPC 1.0`, `gRPC is not supported by this client`). */
  reason: string;
}

/** The chosen interface and the verdict on every entry. */
export interface InterfaceChoice {
  chosen: CardInterface & { spoken: SpokenInterface };
  /** Why it was chosen. */
  reason: string;
  /** Every entry in card order. */
  verdicts: InterfaceVerdict[];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * Interface entries of a card, in the card's order of preference. A v1.0 (or dual-shaped) card:
 * `supportedInterfaces`. A v0.3 card: `url` with `preferredTransport` (default JSONRPC) and
 * `protocolVersion` (default 0.3), then `additionalInterfaces`.
 * @see A2A specification §5.5 (AgentCard.supportedInterfaces); A2A 0.3 §5.6 (url, preferredTransport).
 */
export function listInterfaces(card: Record<string, unknown>): CardInterface[] {
  const supported = card.supportedInterfaces;
  if (Array.isArray(supported) && supported.length > 0) {
    return supported.map((raw: Record<string, unknown>, i) => ({
      url: str(raw?.url),
      binding: str(raw?.protocolBinding) || str(raw?.transport),
      version: str(raw?.protocolVersion),
      tenant: str(raw?.tenant),
      source: `supportedInterfaces[${i}]`,
    }));
  }
  const version = str(card.protocolVersion) || '0.3';
  const out: CardInterface[] = [];
  if (typeof card.url === 'string') {
    out.push({
      url: card.url,
      binding: str(card.preferredTransport) || 'JSONRPC',
      version,
      tenant: '',
      source: 'url',
    });
  }
  const additional = Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : [];
  additional.forEach((raw: Record<string, unknown>, i) => {
    out.push({
      url: str(raw?.url),
      binding: str(raw?.transport),
      version,
      tenant: '',
      source: `additionalInterfaces[${i}]`,
    });
  });
  return out;
}

/** `1.0`, `1.0.x` → `1.0`; `0.3`, `0.3.x` → `0.3`; anything else → undefined. */
function versionFamily(v: string): '1.0' | '0.3' | undefined {
  if (/^1\.0(\.\d+)?$/.test(v)) return '1.0';
  if (/^0\.3(\.\d+)?$/.test(v)) return '0.3';
  return undefined;
}

/** The verdict on one entry. */
export function judgeInterface(entry: CardInterface): InterfaceVerdict {
  const binding = entry.binding.toUpperCase();
  let url: URL | undefined;
  try {
    url = new URL(entry.url);
  } catch {
    return { entry, reason: `no usable URL (${entry.url || 'missing'})` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { entry, reason: `${url.protocol} URLs are not supported` };
  if (binding === 'GRPC') return { entry, reason: 'gRPC is not supported by this client' };
  if (binding !== 'JSONRPC' && binding !== 'HTTP+JSON')
    return { entry, reason: `unknown binding "${entry.binding}"` };
  const family = versionFamily(entry.version);
  if (!family)
    return { entry, reason: `protocol version "${entry.version || 'missing'}" is not 1.0 or 0.3` };
  const spoken = `${binding} ${family}` as SpokenInterface;
  if (!SPOKEN_INTERFACES.includes(spoken))
    return { entry, reason: `${binding} ${family} is not supported by this client` };
  return { entry, spoken, reason: `speaks ${spoken}` };
}

/**
 * Picks the first entry this client can speak (JSON-RPC 1.0, JSON-RPC 0.3, HTTP+JSON 1.0), in
 * card order, which is the agent's preference. `prefer` narrows the choice (tests, embedding).
 * @param prefer - Only consider entries mapping to these spoken interfaces.
 * @throws {A2AClientError} `NO_USABLE_INTERFACE`, listing every entry and why it was skipped.
 * @see A2A specification §3.2 (the client picks from the interfaces the agent declares).
 */
export function chooseInterface(
  card: Record<string, unknown>,
  prefer?: readonly SpokenInterface[],
): InterfaceChoice {
  const verdicts = listInterfaces(card).map((entry) => {
    const v = judgeInterface(entry);
    if (v.spoken && prefer && !prefer.includes(v.spoken))
      return { entry, reason: `${v.spoken} excluded by preference` };
    return v;
  });
  const first = verdicts.find((v) => v.spoken);
  if (first?.spoken) {
    const index = verdicts.indexOf(first);
    const reason =
      index === 0
        ? `${first.entry.source} is the agent's first choice and this client speaks it (${first.spoken})`
        : `${first.entry.source} is the first entry this client can speak (${first.spoken}); earlier entries skipped`;
    return { chosen: { ...first.entry, spoken: first.spoken }, reason, verdicts };
  }
  const listed = verdicts.length
    ? verdicts
        .map(
          (v) =>
            `  ${v.entry.source}: ${v.entry.binding || '?'} ${v.entry.version || '?'} at ${v.entry.url || '?'}: ${v.reason}`,
        )
        .join('\n')
    : '  (the card lists no interface: neither supportedInterfaces nor url)';
  throw new A2AClientError(
    A2AClientErrorCode.NoUsableInterface,
    `no usable interface in the agent card (this client speaks ${SPOKEN_INTERFACES.join(', ')}):\n${listed}`,
  );
}
