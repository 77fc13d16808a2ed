import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A tool call the fake model makes; `arguments` is sent as JSON (a string is sent verbatim). */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/**
 * One scripted model answer: text and/or tool calls (finish_reason `tool_calls` when there are
 * any, else `stop`). `status` answers with that HTTP error instead; `hang` (non-streaming: sends
 * nothing; streaming:) streams the first
 * chunk and then nothing until the client goes away; `chunkDelayMs` paces the stream.
 */
export interface FakeTurn {
  text?: string;
  toolCalls?: FakeToolCall[];
  status?: number;
  hang?: boolean;
  chunkDelayMs?: number;
}

/** A chat-completions message as the client sent it. */
export interface FakeChatMessage {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The body of a `POST /v1/chat/completions` as received. */
export interface FakeChatRequest {
  model: string;
  stream?: boolean;
  messages: FakeChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
  [key: string]: unknown;
}

/** A received request: the parsed body and the Authorization header. */
export interface RecordedRequest {
  body: FakeChatRequest;
  authorization: string | undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Splits a string into pieces of `size` characters (at least one piece). */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

/**
 * A real HTTP server on 127.0.0.1 (random port) speaking the OpenAI chat-completions wire
 * format, streaming (SSE `chat.completion.chunk`s, tool call arguments in pieces, `[DONE]`)
 * and non-streaming. Answers come from a queue of scripted turns; every request is recorded
 * so tests can assert what the model was sent (tools offered, tool results).
 */
export class FakeOpenAiServer {
  /** Requests received, oldest first. */
  readonly requests: RecordedRequest[] = [];
  private readonly turns: FakeTurn[] = [];
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  private port = 0;
  private counter = 0;

  /** Starts a server on 127.0.0.1 with a free port. */
  static async start(): Promise<FakeOpenAiServer> {
    const fake = new FakeOpenAiServer();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    fake.server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** `http://127.0.0.1:<port>/v1`, the base URL for the openai-compatible provider. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Queues answers, served in order, one per request. */
  enqueue(...turns: FakeTurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  /** Scripted turns not served yet. */
  get pending(): number {
    return this.turns.length;
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return this.error(res, 404, `fake server: no route ${req.method} ${req.url}`);
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeChatRequest;
    this.requests.push({ body, authorization: req.headers.authorization });
    const turn = this.turns.shift();
    if (!turn) return this.error(res, 500, 'fake server: no scripted turn left');
    if (turn.status)
      return this.error(res, turn.status, `fake server: scripted HTTP ${turn.status}`);
    const id = `chatcmpl-${++this.counter}`;
    if (body.stream) return this.stream(res, id, body.model, turn);
    if (turn.hang) return; // non-streaming: no answer at all until the client gives up
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(this.completion(id, body.model, turn)));
  }

  private error(res: ServerResponse, status: number, message: string): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'fake_error', code: null } }));
  }

  private calls(turn: FakeTurn) {
    return (turn.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${this.counter}_${i}`,
      type: 'function',
      function: {
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      },
    }));
  }

  private finishReason(turn: FakeTurn): string {
    return turn.toolCalls?.length ? 'tool_calls' : 'stop';
  }

  private completion(id: string, model: string, turn: FakeTurn) {
    const toolCalls = this.calls(turn);
    const message = {
      role: 'assistant',
      content: turn.text ?? null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    return {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: this.finishReason(turn) }],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    };
  }

  private async stream(
    res: ServerResponse,
    id: string,
    model: string,
    turn: FakeTurn,
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const created = Math.floor(Date.now() / 1000);
    const send = async (delta: object, finish: string | null = null, extra: object = {}) => {
      if (res.destroyed) return;
      const chunk = { id, object: 'chat.completion.chunk', created, model, ...extra };
      res.write(
        `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
      if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
    };
    await send({ role: 'assistant', content: '' });
    if (turn.hang) return; // the client's abort closes the socket
    for (const p of turn.text ? pieces(turn.text, 6) : []) await send({ content: p });
    for (const [index, call] of this.calls(turn).entries()) {
      const head = {
        index,
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: '' },
      };
      await send({ tool_calls: [head] });
      for (const p of pieces(call.function.arguments, 8)) {
        await send({ tool_calls: [{ index, function: { arguments: p } }] });
      }
    }
    await send({}, this.finishReason(turn));
    const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
    if (!res.destroyed)
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
      );
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  }
}
