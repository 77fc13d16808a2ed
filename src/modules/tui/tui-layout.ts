import { TEXT_FOCUS, type TuiState } from './tui-state';

/** A run of text with one style. `color` is dropped under `NO_COLOR`. */
export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
}

/** One screen row. */
export type Line = Seg[];

/** Chip colour ("purple"). */
const PURPLE = '#a855f7';
const SPIN = ['|', '/', '-', '\\'];

/** Wraps `text` to `width` columns (hard breaks at the width; newlines kept). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    let rest = raw;
    while (rest.length > width) {
      const cut = rest.lastIndexOf(' ', width);
      const at = cut > width / 2 ? cut : width;
      out.push(rest.slice(0, at));
      rest = rest.slice(at).replace(/^ /, '');
    }
    out.push(rest);
  }
  return out;
}

function focusMark(s: TuiState, id: string): string {
  return s.focus === id ? '>' : ' ';
}

/** Header names whose values are credentials (as the client's redactor decides). */
const SECRET_HEADER = /auth|token|key|secret|password|cookie|session/i;

/** The Headers field with the values of credential-like headers shown as dots. */
export function maskHeaders(text: string): string {
  return text.replace(/(^|;)([^:;]*):([^;]*)/g, (all, sep: string, name: string, value: string) =>
    SECRET_HEADER.test(name) ? `${sep}${name}:${value.replace(/[^ ]/g, '•')}` : all,
  );
}

function field(s: TuiState, id: string, label: string, width: number, mask = false): Seg[] {
  const value = s.fields[TEXT_FOCUS[id]];
  const shown = mask ? '•'.repeat(value.length) : id === 'headers' ? maskHeaders(value) : value;
  const cursor = s.focus === id ? '_' : '';
  const room = Math.max(4, width - label.length - 4);
  const text = (shown + cursor).slice(-room).padEnd(room, ' ');
  return [{ text: `${focusMark(s, id)}${label} ` }, { text: `[${text}]`, bold: s.focus === id }];
}

function button(s: TuiState, id: string, label: string): Seg {
  return { text: `${focusMark(s, id)}[${label}]`, bold: s.focus === id };
}

function chip(s: TuiState, id: keyof TuiState['chips'], label: string): Seg {
  const on = s.chips[id];
  return {
    text: `${focusMark(s, `chip-${id}`)}(${on ? '*' : ' '}${label})`,
    color: PURPLE,
    bold: on,
  };
}

function topLines(s: TuiState, width: number): Line[] {
  const lines: Line[] = [
    [...field(s, 'origin', 'Origin', width - 12), { text: ' ' }, button(s, 'connect', 'Connect')],
    [
      ...field(s, 'credential', 'Credential', 36, true),
      { text: ' ' },
      chip(s, 'oauth', 'OAuth'),
      chip(s, 'headers', 'Headers'),
      chip(s, 'mtls', 'mTLS'),
      chip(s, 'inspect', 'Inspect'),
    ],
  ];
  if (s.chips.headers) lines.push(field(s, 'headers', 'Headers (Name: value; …)', width));
  if (s.chips.mtls) {
    const w = Math.floor(width / 3);
    lines.push([
      ...field(s, 'tls-cert', 'cert', w),
      ...field(s, 'tls-key', 'key', w),
      ...field(s, 'tls-ca', 'CA', w),
    ]);
  }
  if (s.chips.inspect) {
    lines.push([button(s, 'check', 'Check'), { text: ' discovery trace (redacted):' }]);
    for (const t of s.trace.slice(-4)) lines.push([{ text: `  ${t}` }]);
  }
  return lines;
}

function agentLines(s: TuiState): Line[] {
  const a = s.agent;
  if (!a) return [];
  const kind = a.catalogue
    ? 'catalogue (skill shortlists, not a model)'
    : a.streaming
      ? 'streams replies'
      : 'one reply per send';
  const lines: Line[] = [
    [{ text: `Agent: ${a.name} ${a.version} · ${kind}`, bold: true }],
    [{ text: `Interface: ${a.interfaceLine} (${a.reason}); auth: ${a.auth}` }],
    [{ text: `Skills: ${a.skills.join(', ')}` }],
  ];
  // Once the conversation has lines, the Try lines give it their rows (shown again on focus).
  const showTry = !s.transcript.length || s.focus.startsWith('try-');
  if (showTry)
    a.examples.forEach((e, i) => lines.push([{ text: `${focusMark(s, `try-${i}`)}Try "${e}"` }]));
  else if (a.examples.length)
    lines.push([{ text: ` ${a.examples.length} "Try" examples: Tab to them` }]);
  return lines;
}

function transcriptLines(s: TuiState, width: number): Line[] {
  const color = { you: 'cyan', agent: undefined, info: 'yellow', error: 'red' } as const;
  return s.transcript.flatMap((e) => {
    const prefix = e.who === 'info' ? '· ' : `${e.who}: `;
    return wrap(prefix + e.text, width).map((t) => [{ text: t, color: color[e.who] }]);
  });
}

function bottomLines(s: TuiState, width: number): Line[] {
  const lines: Line[] = [];
  if (s.screen === 'a2a' && s.agent) {
    const ctx = s.taskId
      ? `answering task ${s.taskId}`
      : s.contextId
        ? `context ${s.contextId}`
        : 'new conversation';
    lines.push([
      ...field(s, 'message', 'Message', width - 10),
      { text: ' ' },
      button(s, 'send', 'Send'),
    ]);
    lines.push([
      button(s, 'use', 'Use'),
      button(s, 'logout', 'Logout'),
      button(s, 'back', 'Back'),
      { text: ` ${ctx}${s.savedAs ? ` · saved as ${s.savedAs}` : ''}` },
    ]);
  } else if (s.screen === 'a2a') lines.push([button(s, 'back', 'Back')]);
  if (s.screen === 'home') lines.push(field(s, 'command', 'Command', width));
  const spin = s.busy ? `${SPIN[Math.floor(Date.now() / 250) % 4]} ` : '';
  const status = `${spin}${s.status}`.replace(/\s+/g, ' ').trim() || ' ';
  lines.push([{ text: status, color: s.busy ? 'yellow' : 'green' }]);
  lines.push([
    {
      text: 'Tab/↑↓ move · Enter ok · Esc stop/leave · y copy · r resend · n new · ^C quit',
      color: 'gray',
    },
  ]);
  return lines;
}

/**
 * The whole screen as rows for a `width` × `height` terminal (80 × 24 and up): header, fields
 * and chips, agent block, the conversation (its newest lines, as many as fit), message box,
 * buttons, status and key help. Focus is shown by `>` and brackets, so the screen reads the
 * same without colour.
 */
export function layout(s: TuiState, width: number, height: number): Line[] {
  const head: Line[] = [
    [{ text: 'SuperQode · A2A', bold: true }, { text: s.screen === 'a2a' ? '  :connect a2a' : '' }],
  ];
  if (s.screen === 'protocols')
    head.push(
      [{ text: 'Protocols:' }],
      [{ text: `${focusMark(s, 'proto-a2a')}[A2A] talk to any A2A agent`, bold: true }],
    );
  if (s.screen === 'a2a') head.push(...topLines(s, width), ...agentLines(s));
  const bottom = bottomLines(s, width);
  const room = Math.max(1, height - head.length - bottom.length - 1);
  const talk = transcriptLines(s, width - 1).slice(-room);
  return [...head, [{ text: '─'.repeat(Math.min(width, 80)), color: 'gray' }], ...talk, ...bottom];
}
