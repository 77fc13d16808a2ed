import {
  createServer as createHttpServer,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request the fake saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A JSON-RPC request as parsed by the fake. */
export interface RpcCall {
  id: unknown;
  method: string;
  params: Record<string, unknown>;
}

/** Route handler: return true when it answered. */
export type Route = (req: SeenRequest, res: ServerResponse) => boolean | Promise<boolean>;

/** What a fake agent serves. */
export interface FakeAgentOptions {
  /** Card JSON for a base URL; served at `cardPath` (default agent-card.json). */
  card?: (base: string) => Record<string, unknown>;
  cardPath?: string;
  /** ETag sent with the card; `If-None-Match` equal to it gets 304. */
  etag?: string;
  /** Credentials check for every non-card route (and the card when `protectCard`); false → 401. */
  auth?: (req: SeenRequest) => boolean | Promise<boolean>;
  protectCard?: boolean;
  /** JSON-RPC handler at `POST /` (result object, or a Route-like raw writer). */
  rpc?: (call: RpcCall, res: ServerResponse) => unknown;
  /** Extra routes, tried before the built-in ones. */
  routes?: Route[];
  /** HTTPS with these PEMs (mutual TLS when `requestCert`). */
  tls?: { key: Buffer; cert: Buffer; ca: Buffer; requestCert: boolean };
}

/** A running fake agent on 127.0.0.1. */
export interface FakeAgent {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes a JSON answer. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
  return true;
}

/** A completed v1.0 task (proto-JSON) echoing `text`. */
export function aV1Task(
  text: string,
  contextId = 'ctx-1',
  state = 'TASK_STATE_COMPLETED',
): Record<string, unknown> {
  return {
    id: 'task-1',
    contextId,
    status: {
      state,
      message: { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ text: `status: ${text}` }] },
    },
    artifacts: [{ artifactId: 'r', name: 'reply', parts: [{ text: `echo: ${text}` }] }],
    history: [],
  };
}

/** A completed v0.3 task (kind-tagged JSON) echoing `text`. */
export function aV03Task(
  text: string,
  contextId = 'ctx-03',
  state = 'completed',
): Record<string, unknown> {
  return {
    kind: 'task',
    id: 'task-03',
    contextId,
    status: {
      state,
      message: {
        kind: 'message',
        messageId: 'a1',
        role: 'agent',
        parts: [{ kind: 'text', text: `status: ${text}` }],
      },
    },
    artifacts: [{ artifactId: 'r', parts: [{ kind: 'text', text: `echo: ${text}` }] }],
  };
}

/** Text of the first part of a request message, v1.0 or v0.3 shape. */
export function messageTextOf(params: Record<string, unknown>): string {
  const parts = ((params.message as { parts?: { text?: string }[] })?.parts ?? []) as {
    text?: string;
  }[];
  return parts[0]?.text ?? '';
}

/**
 * The default JSON-RPC answers: SendMessage / message/send echo a completed task;
 * SendStreamingMessage / message/stream send it as the one event of an SSE stream.
 */
function defaultRpc(call: RpcCall, res: ServerResponse): unknown {
  const text = messageTextOf(call.params);
  if (call.method === 'SendMessage') return { task: aV1Task(text) };
  if (call.method === 'message/send') return aV03Task(text);
  if (call.method === 'SendStreamingMessage' || call.method === 'message/stream') {
    const result = call.method === 'message/stream' ? aV03Task(text) : { task: aV1Task(text) };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result })}\n\n`);
    return result;
  }
  return undefined;
}

async function handle(
  o: FakeAgentOptions,
  base: () => string,
  seen: SeenRequest[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const r: SeenRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body: await readBody(req),
  };
  seen.push(r);
  for (const route of o.routes ?? []) if (await route(r, res)) return;
  const isCard = r.path === (o.cardPath ?? '/.well-known/agent-card.json');
  if ((!isCard || o.protectCard) && o.auth && !(await o.auth(r))) {
    json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer realm="fake"' });
    return;
  }
  if (isCard && o.card) {
    if (o.etag && r.headers['if-none-match'] === o.etag) {
      res.writeHead(304, { etag: o.etag }).end();
      return;
    }
    json(res, 200, o.card(base()), o.etag ? { etag: o.etag } : {});
    return;
  }
  if (r.method === 'POST' && r.path === '/') {
    const call = JSON.parse(r.body) as RpcCall;
    const result = (o.rpc ?? defaultRpc)(call, res);
    if (res.writableEnded || res.headersSent) return;
    if (result === undefined)
      json(res, 200, {
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32601, message: `Method not found: ${call.method}` },
      });
    else json(res, 200, { jsonrpc: '2.0', id: call.id, result });
    return;
  }
  json(res, 404, { error: 'not found' });
}

/** Starts a fake agent (node:http or node:https) on 127.0.0.1, port chosen by the OS. */
export async function startFakeAgent(o: FakeAgentOptions): Promise<FakeAgent> {
  const seen: SeenRequest[] = [];
  let url = '';
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(o, () => url, seen, req, res).catch((err: Error) => {
      if (!res.headersSent) json(res, 500, { error: err.message });
      else res.end();
    });
  };
  const server: Server = o.tls
    ? createHttpsServer(
        {
          key: o.tls.key,
          cert: o.tls.cert,
          ca: o.tls.ca,
          requestCert: o.tls.requestCert,
          rejectUnauthorized: o.tls.requestCert,
        },
        listener,
      )
    : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `${o.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests: seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A minimal valid v1.0 card with the given interfaces and extra fields. */
export function aV1Card(
  interfaces: { url: string; protocolBinding: string; protocolVersion: string }[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Fake',
    description: 'A fake agent for client tests',
    version: '1.0.0',
    supportedInterfaces: interfaces.map((i) => ({ tenant: '', ...i })),
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['echo'] }],
    ...extra,
  };
}

/** A minimal valid v0.3 card (url + preferredTransport, no supportedInterfaces). */
export function aV03Card(
  url: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Fake 0.3',
    description: 'A 0.3-only fake agent',
    version: '0.3.0',
    protocolVersion: '0.3.0',
    url,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['echo'] }],
    ...extra,
  };
}
