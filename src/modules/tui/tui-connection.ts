import type { A2AClient } from '../client/a2a-client';
import type { SavedConnection } from '../client/connections.store';
import type { TlsFiles } from '../client/tls-fetch';
import {
  fieldsAsked,
  isCatalogue,
  parseHeaderField,
  skillExamples,
  type AgentView,
  type TuiFields,
  type TuiState,
} from './tui-state';

/** TLS file paths from the mTLS fields, or undefined when all are empty. */
export function tlsOf(f: TuiFields): TlsFiles | undefined {
  return f.tlsCert || f.tlsKey || f.tlsCa
    ? { cert: f.tlsCert || undefined, key: f.tlsKey || undefined, ca: f.tlsCa || undefined }
    : undefined;
}

/** What the screen shows about a connected client. */
export function agentViewOf(client: A2AClient): AgentView {
  return {
    name: client.card.name,
    version: client.card.version,
    cardUrl: client.discovery.cardUrl,
    interfaceLine: `${client.interface.chosen.spoken} at ${client.interface.chosen.url}`,
    reason: client.interface.reason,
    skills: client.card.skills.map((k) => k.name || k.id),
    examples: skillExamples(client),
    catalogue: isCatalogue(client),
    streaming: Boolean(client.card.capabilities?.streaming),
    auth: client.auth.usedScheme ? `scheme "${client.auth.usedScheme}"` : 'no credential sent',
  };
}

/** A connection name from what was typed (or the agent name): 1-64 of A-Z a-z 0-9 . _ -. */
export function connectionName(raw: string): string {
  return (
    raw
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 64) || 'agent'
  );
}

/** The saved connection for the screen as it is (fields, conversation). */
export function connectionOf(s: TuiState, name: string): Omit<SavedConnection, 'savedAt'> {
  return {
    name,
    url: s.fields.origin.trim(),
    headers: parseHeaderField(s.fields.headers),
    tls: tlsOf(s.fields),
    token: s.fields.credential || undefined,
    contextId: s.contextId,
    taskId: s.taskId,
  };
}

/** Fills the fields, chips and conversation from a saved connection. */
export function fillFrom(s: TuiState, c: SavedConnection): void {
  const f = s.fields;
  f.origin = c.url;
  f.headers = c.headers.map(([n, v]) => `${n}: ${v}`).join('; ');
  f.credential = c.token ?? '';
  [f.tlsCert, f.tlsKey, f.tlsCa] = [c.tls?.cert ?? '', c.tls?.key ?? '', c.tls?.ca ?? ''];
  s.chips.headers ||= c.headers.length > 0;
  s.chips.mtls ||= Boolean(c.tls?.cert);
  [s.contextId, s.taskId] = [c.contextId, c.taskId];
  s.screen = 'a2a';
}

/**
 * Opens the Headers / mTLS fields the card's schemes ask for (an API key in a header is
 * prefilled as `Name: `). Returns a note for a query key (the credential is sent as `?name=`).
 */
export function openAskedFields(s: TuiState, client: A2AClient): string | undefined {
  const asked = fieldsAsked(client.securitySchemes);
  if (asked.header && !s.chips.headers) {
    s.chips.headers = true;
    if (!s.fields.headers) s.fields.headers = `${asked.header}: `;
  }
  if (asked.mtls) s.chips.mtls = true;
  if (!asked.query) return undefined;
  s.chips.headers = true;
  return `the card asks for a query key: the credential is sent as ?${asked.query}=…`;
}
