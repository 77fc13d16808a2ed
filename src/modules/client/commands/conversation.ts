import { createInterface } from 'node:readline';
import type { StreamResponse } from '@a2a-js/sdk';
import type { A2AClient } from '../a2a-client';
import { A2AClientError, A2AClientErrorCode } from '../client.errors';
import { isTerminal, viewResult, type ResultView } from '../result-view';
import { withSpinner } from '../spinner';
import { out, resultLines, succeeded } from './client-output';
import { EXIT } from './exit-codes';
import { printStream, type StreamOutcome } from './stream-output';

/** Flags that shape one conversation turn (shared by `connect a2a` and `a2a call`). */
export interface TurnFlags {
  /** `--no-stream` sets false: one blocking SendMessage even when the card offers streaming. */
  stream?: boolean;
  /** `--no-wait` sets false: SendMessage with `returnImmediately`, print the task id, exit. */
  wait?: boolean;
  /** `--idle-timeout SECONDS` of a stream (default 300; 0 = none). */
  idleTimeout?: number;
  /** `--task ID`: reply to this task (one waiting for input). */
  task?: string;
  json?: boolean;
  inspect?: boolean;
}

/** How printed follow-up commands name the agent. */
export interface FollowUp {
  /** Saved connection name (`a2a call NAME`), when there is one. */
  connection?: string;
  /** The URL as typed, for commands without a saved connection. */
  url: string;
}

/** Where the conversation stands after a turn (saved for the next `a2a call`). */
export interface Thread {
  contextId?: string;
  /** Set while the task waits for a reply. */
  taskId?: string;
}

/** `superqode a2a …` target: the saved name, else the URL. */
const target = (f: FollowUp): string => f.connection ?? quote(f.url);
const quote = (s: string): string =>
  /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
const waiting = (state?: string): boolean =>
  state === 'input-required' || state === 'auth-required';

/**
 * The saved pending task id when the agent still has that task waiting for a reply; undefined
 * when it ended meanwhile (cancelled, answered from another command, client killed mid-stream)
 * or is gone, so the next message starts a new task in the saved context instead of failing.
 * @throws {A2AClientError} The agent could not be asked (unreachable, refused credentials).
 */
export async function stillPending(
  client: A2AClient,
  taskId: string | undefined,
): Promise<string | undefined> {
  if (!taskId) return undefined;
  try {
    return waiting(viewResult(await client.getTask(taskId)).state) ? taskId : undefined;
  } catch (err) {
    // Transport and credential failures are ours (A2AClientError); an A2A error answer (the
    // SDK's, e.g. TaskNotFound) means the task is not there to continue.
    if (err instanceof A2AClientError) throw err;
    return undefined;
  }
}

/** The exact command that replies to a waiting task. */
export function replyCommand(f: FollowUp, taskId: string): string {
  return f.connection
    ? `superqode a2a call ${f.connection} --task ${taskId} "REPLY"`
    : `superqode connect a2a ${quote(f.url)} --task ${taskId} --send "REPLY"`;
}

/** Lines saying how to follow or cancel a task still running on the agent. */
export function followLines(f: FollowUp, taskId: string): string[] {
  return [
    `follow it:   superqode a2a subscribe ${target(f)} ${taskId}`,
    `check it:    superqode a2a get ${target(f)} ${taskId}`,
    `cancel it:   superqode a2a cancel ${target(f)} ${taskId}`,
  ];
}

/** Asks one line on the terminal; undefined on EOF (Ctrl-D). */
function ask(question: string): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  return new Promise((resolve) => {
    let answered = false;
    rl.question(question, (a) => {
      answered = true;
      rl.close();
      resolve(a);
    });
    rl.on('close', () => answered || resolve(undefined));
  });
}

/** True when a person can be asked: stdin and stdout are terminals and output is not JSON. */
function interactive(f: TurnFlags): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && !f.json);
}

/**
 * Runs a conversation from one message: streams when the card advertises streaming (unless
 * `--no-stream`), else one blocking send; `--no-wait` returns at once with the task id. On
 * `input-required` a terminal is asked for the reply, which goes to the same task; without one
 * the task id and the reply command are printed and the exit code is {@link EXIT.INPUT_REQUIRED}.
 * When the client stops waiting the task id and how to follow or cancel it are printed
 * ({@link EXIT.TIMEOUT}). `save` receives the thread after every turn. With `json` nothing is
 * printed on stdout: the caller prints the returned view.
 * @param head - Lines printed before the first answer (agent, interface, ...).
 * @returns The last result view.
 */
export async function converse(
  client: A2AClient,
  first: string,
  thread: Thread,
  f: TurnFlags,
  follow: FollowUp,
  save: (t: Thread) => void,
  head: string[] = [],
): Promise<ResultView | undefined> {
  let text = first;
  let current: Thread = { ...thread, taskId: f.task ?? thread.taskId };
  if (!f.json) out(...head);
  for (;;) {
    let view: ResultView;
    try {
      view = await turn(client, text, current, f, follow);
    } catch (err) {
      if (err instanceof A2AClientError && err.code === A2AClientErrorCode.Timeout) {
        const id = (err as { taskId?: string }).taskId;
        process.stderr.write(`error: ${err.message}\n`);
        if (id) {
          process.stderr.write(`task ${id} may still be running on the agent:\n`);
          process.stderr.write(
            followLines(follow, id)
              .map((l) => `  ${l}\n`)
              .join(''),
          );
        } else
          process.stderr.write(
            `its task may still be running: superqode a2a tasks ${target(follow)}${current.contextId ? ` --context ${current.contextId}` : ''}\n`,
          );
        process.exitCode = EXIT.TIMEOUT;
        return undefined;
      }
      throw err;
    }
    current = {
      contextId: view.contextId ?? current.contextId,
      taskId: waiting(view.state) ? view.taskId : undefined,
    };
    save(current);
    if (f.wait === false || !waiting(view.state) || !view.taskId) {
      if (f.wait !== false && !succeeded(view)) process.exitCode = EXIT.FAILURE;
      return view;
    }
    const reply = interactive(f) ? await ask('reply> ') : undefined;
    if (!reply?.trim()) {
      const lines = [
        `task ${view.taskId} is waiting for your reply (${view.state})`,
        `reply with: ${replyCommand(follow, view.taskId)}`,
      ];
      if (f.json) process.stderr.write(lines.map((l) => `${l}\n`).join(''));
      else out('', ...lines);
      process.exitCode = EXIT.INPUT_REQUIRED;
      return view;
    }
    text = reply.trim();
  }
}

/** One message and its answer, printed. */
async function turn(
  client: A2AClient,
  text: string,
  thread: Thread,
  f: TurnFlags,
  follow: FollowUp,
): Promise<ResultView> {
  const ids = { contextId: thread.contextId, taskId: thread.taskId };
  if (f.wait === false) {
    const view = viewResult(await client.send(text, { ...ids, blocking: false }));
    if (f.json) return view;
    // Follow-up commands only for a task still under way (a fast agent may have finished it).
    if (view.taskId && !isTerminal(view.state ?? ''))
      out(...resultLines({ ...view, text: [] }), '', ...followLines(follow, view.taskId));
    else out(...resultLines(view));
    return view;
  }
  if (f.stream !== false && client.card.capabilities?.streaming) {
    const o = await streamTurn(client, text, ids, f);
    if (!f.json) printOutcome(o);
    return o.view;
  }
  const view = viewResult(
    await withSpinner('waiting for the agent', () => client.send(text, ids), {
      enabled: !f.inspect,
    }),
  );
  if (!f.json) out('', ...resultLines(view));
  return view;
}

async function streamTurn(
  client: A2AClient,
  text: string,
  ids: Thread,
  f: TurnFlags,
): Promise<StreamOutcome> {
  let open = false;
  const sink = {
    text: (chunk: string): void => {
      if (f.json || !chunk) return;
      if (!open) process.stdout.write('\n');
      open = true;
      process.stdout.write(chunk);
    },
    status: (line: string): void => {
      if (f.json) return;
      process.stderr.write(`${open ? '\n' : ''}· ${line}\n`);
      open = false;
    },
  };
  let taskId: string | undefined;
  const events = client.stream(text, {
    ...ids,
    idleTimeoutMs: f.idleTimeout === undefined ? undefined : f.idleTimeout * 1000,
  });
  async function* watched(): AsyncGenerator<StreamResponse> {
    for await (const ev of events) {
      const v = (ev.payload?.value ?? {}) as { taskId?: string; id?: string };
      taskId ??= ev.payload?.$case === 'task' ? v.id : v.taskId;
      yield ev;
    }
  }
  try {
    const o = await printStream(watched(), sink);
    if (open) process.stdout.write('\n');
    return o;
  } catch (err) {
    if (open) process.stdout.write('\n');
    if (err instanceof A2AClientError && taskId) Object.assign(err, { taskId });
    throw err;
  }
}

/** After a stream: ids and state, the question or failure text, then whole artifacts. */
function printOutcome(o: StreamOutcome): void {
  const v = o.view;
  const lines = resultLines({ ...v, text: [] });
  if (o.statusText && (!o.answer || v.state !== 'completed') && o.statusText !== o.answer)
    lines.push('', o.statusText);
  if (!o.answer && !o.statusText && !o.artifacts.length) lines.push('', '(no text in the answer)');
  for (const a of o.artifacts) lines.push('', `artifact ${a.name}:`, ...a.text);
  out('', ...lines);
}
