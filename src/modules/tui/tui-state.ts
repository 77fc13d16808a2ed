import type { A2AClient } from '../client/a2a-client';
import type { CardScheme } from '../client/security-schemes';

/** Which screen is shown. */
export type Screen = 'home' | 'protocols' | 'a2a';

/** Text fields of the screen. */
export interface TuiFields {
  command: string;
  origin: string;
  credential: string;
  /** `Name: value`, several separated by `;`. */
  headers: string;
  tlsCert: string;
  tlsKey: string;
  tlsCa: string;
  message: string;
}

/** One line group of the conversation pane. */
export interface TranscriptEntry {
  who: 'you' | 'agent' | 'info' | 'error';
  text: string;
}

/** What the screen shows about the connected agent. */
export interface AgentView {
  name: string;
  version: string;
  cardUrl: string;
  /** `JSONRPC 1.0 at http://…`. */
  interfaceLine: string;
  /** Why that interface was chosen. */
  reason: string;
  skills: string[];
  /** Up to six skill examples ("Try …" lines). */
  examples: string[];
  /** Every skill is a catalogue shortlist: the agent recommends, it is not a model. */
  catalogue: boolean;
  streaming: boolean;
  /** `auth: …` line. */
  auth: string;
}

/** Everything the view draws. */
export interface TuiState {
  screen: Screen;
  fields: TuiFields;
  chips: { oauth: boolean; headers: boolean; mtls: boolean; inspect: boolean };
  focus: string;
  agent?: AgentView;
  transcript: TranscriptEntry[];
  /** Conversation continued by the next Send (`n` forgets it). */
  contextId?: string;
  /** Task waiting for input: the next Send answers it. */
  taskId?: string;
  /** Set while a connect or send is under way. */
  busy?: { label: string; since: number; lastEventAt: number };
  status: string;
  /** Redacted discovery trace lines (Inspect). */
  trace: string[];
  /** Name the connection was saved under (Use). */
  savedAs?: string;
}

/** Focus targets holding text, by field. */
export const TEXT_FOCUS: Record<string, keyof TuiFields> = {
  command: 'command',
  origin: 'origin',
  credential: 'credential',
  headers: 'headers',
  'tls-cert': 'tlsCert',
  'tls-key': 'tlsKey',
  'tls-ca': 'tlsCa',
  message: 'message',
};

/** Focus order of what is visible now (Tab / Shift-Tab walk it). */
export function focusOrder(s: TuiState): string[] {
  if (s.screen === 'home') return ['command'];
  if (s.screen === 'protocols') return ['proto-a2a'];
  const order = ['origin', 'connect', 'credential', 'chip-oauth', 'chip-headers', 'chip-mtls'];
  order.push('chip-inspect');
  if (s.chips.headers) order.push('headers');
  if (s.chips.mtls) order.push('tls-cert', 'tls-key', 'tls-ca');
  if (s.chips.inspect) order.push('check');
  if (s.agent) {
    s.agent.examples.forEach((_, i) => order.push(`try-${i}`));
    order.push('message', 'send', 'use', 'logout');
  }
  order.push('back');
  return order;
}

/** `Name: value; Other: value` → pairs (entries without a colon are ignored). */
export function parseHeaderField(text: string): [string, string][] {
  return text
    .split(/[;\n]/)
    .map((h) => h.trim())
    .filter((h) => h.includes(':'))
    .map((h) => {
      const i = h.indexOf(':');
      return [h.slice(0, i).trim(), h.slice(i + 1).trim()] as [string, string];
    })
    .filter(([name, value]) => name && value);
}

/** Skill examples, at most six, in card order. */
export function skillExamples(client: A2AClient): string[] {
  return client.card.skills.flatMap((s) => s.examples ?? []).slice(0, 6);
}

/** True when the card has skills and every one is a catalogue shortlist (tag `catalogue`). */
export function isCatalogue(client: A2AClient): boolean {
  const skills = client.card.skills;
  return skills.length > 0 && skills.every((s) => (s.tags ?? []).includes('catalogue'));
}

/** Which fields the card's security schemes ask for. */
export function fieldsAsked(schemes: CardScheme[]): {
  header?: string;
  query?: string;
  mtls: boolean;
} {
  const key = (where: string): string | undefined =>
    schemes.find((s) => s.kind === 'apiKey' && s.location === where)?.paramName;
  return {
    header: key('header'),
    query: key('query'),
    mtls: schemes.some((s) => s.kind === 'mtls'),
  };
}

/** The state of a fresh screen. */
export function initialState(): TuiState {
  return {
    screen: 'home',
    fields: {
      command: '',
      origin: '',
      credential: '',
      headers: '',
      tlsCert: '',
      tlsKey: '',
      tlsCa: '',
      message: '',
    },
    chips: { oauth: true, headers: false, mtls: false, inspect: false },
    focus: 'command',
    transcript: [],
    status: 'Type :connect a2a URL (or :connect, :a2a list, :a2a call NAME); Ctrl-C quits',
    trace: [],
  };
}
