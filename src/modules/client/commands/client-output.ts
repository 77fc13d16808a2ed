import type { A2AClient } from '../a2a-client';
import type { CheckResult } from '../conformance';
import type { Redactor } from '../redact';
import type { ResultView } from '../result-view';

/** Writes lines to stdout (command results). */
export function out(...lines: string[]): void {
  process.stdout.write(lines.map((l) => `${l}\n`).join(''));
}

/** Writes one JSON document to stdout. */
export function outJson(doc: unknown): void {
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}

/**
 * Reports a failure as `error: …` on stderr, redacted, and sets the exit code (1 unless given);
 * the command then returns normally. Written directly, like `a2a-keys`: Nest's Logger prints
 * warnings on stdout, which would corrupt `--json` output.
 */
export function fail(err: unknown, redactor: Redactor, exitCode = 1): void {
  const text = err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${redactor.text(text)}\n`);
  process.exitCode = exitCode;
}

/** A diagnostic on stderr: `warning: …` (redacted). */
export function warn(text: string, redactor: Redactor): void {
  process.stderr.write(`warning: ${redactor.text(text)}\n`);
}

/** States after which a send counts as successful (the agent answered and is not broken). */
export function succeeded(v: ResultView): boolean {
  return v.kind === 'message' || v.state === 'completed' || v.state === 'input-required';
}

/** `agent:`, `card:`, `interface:`, `auth:` lines for a connected client. */
export function summaryLines(c: A2AClient): string[] {
  const d = c.discovery;
  return [
    `agent:     ${c.card.name} ${c.card.version}`,
    `card:      ${d.cardUrl}${d.fromCache ? ' (cached copy revalidated: 304)' : ''}`,
    `interface: ${c.interface.chosen.spoken} at ${c.interface.chosen.url}`,
    `auth:      ${c.auth.usedScheme ? `scheme "${c.auth.usedScheme}"` : 'no credential sent'}`,
  ];
}

/** A summary object for `--json`. */
export function summaryJson(c: A2AClient): Record<string, unknown> {
  return {
    agent: { name: c.card.name, version: c.card.version },
    cardUrl: c.discovery.cardUrl,
    etag: c.discovery.etag ?? null,
    fromCache: c.discovery.fromCache,
    interface: { ...c.interface.chosen, reason: c.interface.reason },
    interfaces: c.interface.verdicts.map((v) => ({
      ...v.entry,
      usable: Boolean(v.spoken),
      reason: v.reason,
    })),
    auth: { scheme: c.auth.usedScheme ?? null, lines: c.auth.lines, warnings: c.auth.warnings },
  };
}

/** Longest single-line part printed in text mode (data parts are one JSON line). */
const MAX_LINE_CHARS = 300;

/** `task:` / `context:` lines and the reply text of a result. */
export function resultLines(v: ResultView): string[] {
  const head =
    v.kind === 'message'
      ? ['reply:     message (no task)']
      : [`task:      ${v.taskId ?? '?'} ${v.state ?? ''}`.trimEnd()];
  if (v.contextId) head.push(`context:   ${v.contextId}`);
  const cut = (t: string): string =>
    t.length > MAX_LINE_CHARS && !t.includes('\n')
      ? `${t.slice(0, MAX_LINE_CHARS)}… (${t.length} chars; --json shows all)`
      : t;
  return v.text.length ? [...head, '', ...v.text.map(cut)] : head;
}

/** One line for a stream event: `[status] working`, `[artifact] tick 1`. */
export function eventLine(v: ResultView): string {
  const text = v.text.join(' ').replace(/\s+/g, ' ').slice(0, 200);
  return `[${v.kind}] ${[v.state, text].filter(Boolean).join(' ')}`;
}

/** The conformance table, summary line and disclaimer. */
export function checksTable(results: CheckResult[]): string[] {
  const w = Math.max(5, ...results.map((r) => r.name.length));
  const rows = results.map(
    (r) => `${r.name.padEnd(w)}  ${r.status.toUpperCase().padEnd(6)}  ${r.detail}`,
  );
  const count = (s: CheckResult['status']): number => results.filter((r) => r.status === s).length;
  return [
    `${'CHECK'.padEnd(w)}  RESULT  DETAIL`,
    ...rows,
    '',
    `${results.length} checks: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`,
    'These are client-fit checks (can this client discover and use this agent), not a server conformance result.',
  ];
}
