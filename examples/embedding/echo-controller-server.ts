/**
 * Embedding example: serve your own Harness Protocol controller as an A2A agent.
 * The controller here echoes the prompt in two deltas; a real one would drive your harness.
 *
 *   npm run build:tools && node dist-tools/examples/embedding/echo-controller-server.js 8010
 */
import { randomUUID } from 'node:crypto';
import { createA2AServer, HarnessProtocolController } from '../../src/index';
import type { HarnessEvent } from '../../src/index';
import type { CreateHarnessSessionOptions } from '../../src/modules/harness/protocol/harness-protocol';
import type {
  HarnessSessionExport,
  HarnessSessionRecord,
} from '../../src/modules/harness/protocol/harness-records';

/** A minimal controller: every prompt completes with "echo: <prompt>". */
export class EchoController extends HarnessProtocolController {
  readonly descriptor = {
    id: 'echo',
    name: 'Echo',
    capabilities: {
      streaming: true,
      resume: false,
      cancel: false,
      approvals: false,
      tools: false,
      usage: false,
    },
  };
  private readonly sessions = new Map<string, HarnessSessionRecord>();

  async createSession(opts: CreateHarnessSessionOptions): Promise<HarnessSessionRecord> {
    const id = opts.id ?? randomUUID();
    const record = {
      id,
      created_at: new Date().toISOString(),
      spec_name: 'echo',
      working_dir: opts.workingDir,
      metadata: opts.metadata ?? {},
    };
    this.sessions.set(id, record);
    return record;
  }

  async *send(sessionId: string, prompt: string): AsyncIterable<HarnessEvent> {
    const runId = randomUUID();
    let sequence = 0;
    const event = <T extends HarnessEvent['type']>(type: T, data: unknown) =>
      ({
        event_id: randomUUID(),
        session_id: sessionId,
        run_id: runId,
        sequence: ++sequence,
        timestamp: new Date().toISOString(),
        type,
        data,
      }) as HarnessEvent;
    yield event('run.started', {
      prompt,
      provider: null,
      model: null,
      base_url: null,
      working_dir: '.',
    });
    yield event('message.delta', { text: 'echo: ' });
    yield event('message.delta', { text: prompt });
    const usage = { input_tokens: null, output_tokens: null, total_tokens: null };
    yield event('run.completed', {
      status: 'succeeded',
      stop_reason: 'stop',
      text: `echo: ${prompt}`,
      iterations: 1,
      usage,
    });
  }

  async export(sessionId: string): Promise<HarnessSessionExport> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`unknown session ${sessionId}`);
    return { session, runs: [] };
  }
}

if (require.main === module) {
  const port = Number(process.argv[2] ?? 8010);
  const server = createA2AServer({
    controller: new EchoController(),
    taskStorePath: null,
    harnessStorePath: ':memory:',
  });
  void server
    .listen({ host: '127.0.0.1', port })
    .then((url) => process.stdout.write(`echo agent on ${url}\n`));
  // The server adds no signal handler to this process: stop it (and its stores) on Ctrl+C here.
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
