import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { A2AClient, type A2AClientOptions } from './a2a-client';
import { A2AClientError, A2AClientErrorCode } from './client.errors';
import { viewResult } from './result-view';

/** Outcome of one client-fit check. */
export interface CheckResult {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
}

/**
 * Default question of the checks: a shortlist question (an example of the shortlist skill's
 * card), which every SuperQode agent answers with a completed task, with or without a model.
 */
export const CONFORMANCE_QUESTION = 'Which open source harness has approvals and a sandbox?';

/** What the conformance run sends. */
export interface ConformanceOptions {
  /** Text of the messages sent; default {@link CONFORMANCE_QUESTION}. */
  text?: string;
  /** false: check the card only (`--no-send`). */
  send?: boolean;
}

/** Names of the checks, in order. */
export const CHECKS = [
  'card fetch',
  'card shape',
  'interface reachable',
  'send completes',
  'get returns the task',
  'cancel behaves',
  'stream works',
  'context continuity',
] as const;

const DISCOVERY_CODES = new Set<string>([
  A2AClientErrorCode.InvalidUrl,
  A2AClientErrorCode.CardNotFound,
  A2AClientErrorCode.CardProtected,
  A2AClientErrorCode.ResponseTooLarge,
  A2AClientErrorCode.Timeout,
  A2AClientErrorCode.Unreachable,
  A2AClientErrorCode.HttpError,
]);

const REQUIRED_FIELDS = [
  'name',
  'description',
  'version',
  'capabilities',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
];

/** Missing or mistyped required card fields (A2A §5.5 AgentCard). */
export function cardShapeProblems(card: Record<string, unknown>): string[] {
  const problems = REQUIRED_FIELDS.filter((f) => card[f] === undefined).map((f) => `missing ${f}`);
  for (const f of ['defaultInputModes', 'defaultOutputModes', 'skills'])
    if (card[f] !== undefined && !Array.isArray(card[f])) problems.push(`${f} is not an array`);
  const interfaces = Array.isArray(card.supportedInterfaces) && card.supportedInterfaces.length > 0;
  if (!interfaces && typeof card.url !== 'string')
    problems.push('neither supportedInterfaces nor url');
  return problems;
}

function message(err: unknown): string {
  return (err as Error)?.message?.split('\n')[0] ?? String(err);
}

/** A 429 is not a verdict on the agent: the check is skipped, saying when to retry. */
function rateLimited(err: unknown): string | undefined {
  if (!(err instanceof A2AClientError) || err.code !== A2AClientErrorCode.RateLimited)
    return undefined;
  return `rate limited, retry in ${err.retryAfterSeconds ?? '?'} s`;
}

/** A run in progress: results so far and what later checks need. */
class Run {
  readonly results: CheckResult[] = [];
  add(name: string, status: CheckResult['status'], detail: string): void {
    this.results.push({ name, status, detail });
  }
  /** A failed check, or a skipped one when the agent rate-limited it. */
  failed(name: string, err: unknown): void {
    const limited = rateLimited(err);
    this.add(name, limited ? 'skip' : 'fail', limited ?? message(err));
  }
  skipRest(reason: string): CheckResult[] {
    for (const name of CHECKS.slice(this.results.length)) this.add(name, 'skip', reason);
    return this.results;
  }
}

/**
 * Client-fit checks: can this client discover, reach and use the agent? Card fetch, card shape,
 * interface reachable (GetTask of a random id must answer TaskNotFound), send completes (only a
 * completed task passes), get returns the task, cancel behaves (cancelling a completed task is
 * refused as not cancelable), stream works (when advertised), context continuity over two sends.
 * Not a server conformance result. Never throws: every failure is a `fail` row.
 * @see A2A specification §3.1 (operations), §5 (discovery), §7.1.3 (context continuity).
 */
export async function runConformance(
  url: string,
  options: A2AClientOptions,
  o: ConformanceOptions = {},
): Promise<CheckResult[]> {
  const run = new Run();
  let client: A2AClient;
  try {
    client = await A2AClient.connect(url, options);
  } catch (err) {
    const discovery = err instanceof A2AClientError && DISCOVERY_CODES.has(err.code);
    if (rateLimited(err)) run.failed('card fetch', err);
    else if (discovery) run.add('card fetch', 'fail', message(err));
    else {
      run.add('card fetch', 'pass', 'card read');
      run.add('card shape', 'fail', message(err));
    }
    return run.skipRest('earlier check failed');
  }
  try {
    return await checks(run, client, o);
  } finally {
    await client.close();
  }
}

async function checks(run: Run, client: A2AClient, o: ConformanceOptions): Promise<CheckResult[]> {
  const d = client.discovery;
  run.add('card fetch', 'pass', `${d.cardUrl}${d.etag ? ` (ETag ${d.etag})` : ''}`);
  const problems = cardShapeProblems(client.rawCard);
  run.add(
    'card shape',
    problems.length ? 'fail' : 'pass',
    problems.join('; ') || `${client.card.name}; ${client.interface.chosen.spoken} chosen`,
  );
  if (o.send === false) return run.skipRest('--no-send: card only');
  try {
    await client.getTask(`conformance-probe-${randomUUID()}`);
    run.add('interface reachable', 'fail', 'GetTask of a random id returned a task');
  } catch (err) {
    const notFound = err instanceof TaskNotFoundError;
    if (notFound)
      run.add(
        'interface reachable',
        'pass',
        `${client.interface.chosen.spoken} answered TaskNotFound`,
      );
    else run.failed('interface reachable', err);
  }
  const task = await sendCheck(run, client, o.text ?? CONFORMANCE_QUESTION);
  if (!task) return run.skipRest('no completed task');
  await getCheck(run, client, task);
  await cancelCheck(run, client, task);
  await streamCheck(run, client, o.text ?? CONFORMANCE_QUESTION);
  await contextCheck(run, client, task, o.text ?? CONFORMANCE_QUESTION);
  return run.results;
}

async function sendCheck(run: Run, client: A2AClient, text: string): Promise<Task | undefined> {
  try {
    const result = await client.send(text);
    const v = viewResult(result);
    if (v.kind === 'task' && v.state === 'completed') {
      run.add('send completes', 'pass', `task ${v.taskId} completed`);
      return result as Task;
    }
    run.add(
      'send completes',
      'fail',
      v.kind === 'message'
        ? 'the agent answered with a Message, not a completed task'
        : `task ended ${v.state}`,
    );
  } catch (err) {
    run.failed('send completes', err);
  }
  return undefined;
}

async function getCheck(run: Run, client: A2AClient, task: Task): Promise<void> {
  try {
    const got = await client.getTask(task.id);
    const ok = got.id === task.id;
    run.add(
      'get returns the task',
      ok ? 'pass' : 'fail',
      ok ? `state ${viewResult(got).state}` : `returned task ${got.id}`,
    );
  } catch (err) {
    run.failed('get returns the task', err);
  }
}

async function cancelCheck(run: Run, client: A2AClient, task: Task): Promise<void> {
  try {
    const after = await client.cancel(task.id);
    run.add(
      'cancel behaves',
      'fail',
      `cancelling a completed task returned state ${viewResult(after).state}; expected TaskNotCancelable`,
    );
  } catch (err) {
    if (rateLimited(err)) return run.failed('cancel behaves', err);
    const ok = err instanceof TaskNotCancelableError;
    run.add(
      'cancel behaves',
      ok ? 'pass' : 'fail',
      ok ? 'a completed task is refused as not cancelable' : message(err),
    );
  }
}

async function streamCheck(run: Run, client: A2AClient, text: string): Promise<void> {
  if (!client.card.capabilities?.streaming)
    return run.add('stream works', 'skip', 'streaming not advertised');
  try {
    let last: ReturnType<typeof viewResult> | undefined;
    let events = 0;
    for await (const e of client.stream(text)) [last, events] = [viewResult(e), events + 1];
    const ok = last?.kind === 'message' || last?.state === 'completed';
    run.add(
      'stream works',
      ok ? 'pass' : 'fail',
      `${events} event(s), last ${last ? `${last.kind} ${last.state ?? ''}`.trim() : 'none'}`,
    );
  } catch (err) {
    run.failed('stream works', err);
  }
}

async function contextCheck(run: Run, client: A2AClient, task: Task, text: string): Promise<void> {
  try {
    const second = viewResult(await client.send(text, { contextId: task.contextId }));
    const ok = second.contextId === task.contextId;
    run.add(
      'context continuity',
      ok ? 'pass' : 'fail',
      ok ? `two sends in context ${task.contextId}` : `second send got context ${second.contextId}`,
    );
  } catch (err) {
    run.failed('context continuity', err);
  }
}
