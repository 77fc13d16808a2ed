import { policyFor } from '../a2a-connect';
import type { A2AClientOptions } from '../a2a-client';
import { planAuth } from '../auth-plan';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from '../bounded-body';
import { discoverCard } from '../card-discovery';
import { createClientFetch } from '../client-fetch';
import { chooseInterface, judgeInterface, listInterfaces } from '../interface-choice';
import { describeScheme, parseSchemes, requiredSchemes } from '../security-schemes';
import { baseFetchFor } from '../tls-fetch';

/** What `a2a discover` prints: text lines and the same facts as JSON. */
export interface DiscoverReport {
  lines: string[];
  json: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function names(list: unknown, key: string): string[] {
  return (Array.isArray(list) ? list : []).map((x: Json) => String(x?.[key] ?? '?'));
}

/**
 * Reads the card at `url` (same discovery as `A2AClient.connect`) and describes it without
 * calling the agent: interfaces with verdicts and the one that would be chosen (or why none),
 * security schemes and what would be sent, capabilities and skills.
 * @throws {A2AClientError} Discovery errors (see `discoverCard`).
 */
export async function discoverReport(url: string, o: A2AClientOptions): Promise<DiscoverReport> {
  const base = baseFetchFor(o.tls);
  try {
    const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const fetchImpl = createClientFetch({
      base: base.fetch,
      extraHeaders: o.headers ?? [],
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBodyBytes,
      policy: policyFor(url, o),
      stage: 'discovery',
    });
    const d = await discoverCard(url, { fetchImpl, maxBodyBytes });
    const card = d.card;
    const verdicts = listInterfaces(card).map(judgeInterface);
    let chosen: string;
    try {
      const c = chooseInterface(card);
      chosen = `${c.chosen.spoken} at ${c.chosen.url}`;
    } catch (err) {
      chosen = `none: ${(err as Error).message.split('\n')[0]}`;
    }
    const schemes = parseSchemes(card);
    const plan = planAuth(schemes, requiredSchemes(card), {
      token: o.token,
      tokenSource: o.tokenSource,
      clientCertificate: base.clientCertificate,
    });
    const caps = (card.capabilities ?? {}) as Json;
    const lines = [
      `agent:        ${String(card.name)} ${String(card.version ?? '')}`.trimEnd(),
      `description:  ${String(card.description ?? '')}`,
      `card:         ${d.cardUrl}${d.etag ? ` (ETag ${d.etag})` : ''}`,
      'interfaces:',
      ...verdicts.map(
        (v) =>
          `  ${v.spoken ? '✓' : '✗'} ${v.entry.binding} ${v.entry.version} at ${v.entry.url}: ${v.reason}`,
      ),
      `chosen:       ${chosen}`,
      'security:',
      ...(schemes.length ? plan.lines.map((l) => `  ${l}`) : ['  none declared']),
      ...plan.warnings.map((w) => `  warning: ${w}`),
      `capabilities: ${
        Object.entries(caps)
          .filter(([, v]) => typeof v === 'boolean')
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(' ') || 'none'
      }`,
      `skills:       ${names(card.skills, 'name').join(', ') || 'none'}`,
    ];
    const json = {
      cardUrl: d.cardUrl,
      etag: d.etag ?? null,
      card,
      interfaces: verdicts.map((v) => ({
        ...v.entry,
        usable: Boolean(v.spoken),
        reason: v.reason,
      })),
      chosen,
      security: schemes.map(describeScheme),
      auth: plan.lines,
      warnings: plan.warnings,
    };
    return { lines, json };
  } finally {
    await base.close();
  }
}
