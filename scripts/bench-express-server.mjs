// The reference target of `npm run bench`: the SDK's own Express server (@a2a-js/sdk/server/express)
// with a trivial echo AgentExecutor and a capped InMemoryTaskStore. Dev tool, not a test.
// Usage: node scripts/bench-express-server.mjs [port]   (or BENCH_EXPRESS_PORT; default 8010)
// Env: BENCH_EXPRESS_STORE_CAP (default 5000) bounds the tasks kept in memory, as in the
// baseline of docs/a2a-sdk-on-fastify.md §10. Listens on 127.0.0.1 only.
// Routes match the project's server: card at /.well-known/agent-card.json, JSON-RPC at POST /,
// REST (HTTP+JSON) at the root, e.g. POST /message:send.
import express from 'express';
import { AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from '@a2a-js/sdk/server/express';
import { echoExecutor } from './bench-echo-agent.mjs';

const HOST = '127.0.0.1';
const port = Number(process.argv[2] ?? process.env.BENCH_EXPRESS_PORT ?? 8010);
const storeCap = Number(process.env.BENCH_EXPRESS_STORE_CAP ?? 5000);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  throw new Error(`bad port: ${process.argv[2]}`);
const url = `http://${HOST}:${port}`;

/**
 * InMemoryTaskStore that forgets the oldest tasks beyond `cap`, so the heap stays bounded under load.
 * Reaches into the SDK's internal `_scopedStore` (fine for a bench script; re-check on SDK upgrades).
 */
class CappedTaskStore extends InMemoryTaskStore {
  #cap;
  /** task id → the bucket (Map) holding it, in first-save order. */
  #order = new Map();
  constructor(cap) {
    super();
    this.#cap = cap;
  }
  async save(task, context) {
    await super.save(task, context);
    if (this.#order.has(task.id)) return;
    this.#order.set(task.id, this._scopedStore.getBucket(context));
    while (this.#order.size > this.#cap) {
      const [oldId, bucket] = this.#order.entries().next().value;
      this.#order.delete(oldId);
      bucket?.delete(oldId);
    }
  }
}

const card = AgentCard.fromJSON({
  name: 'SDK Express echo (bench)',
  description:
    'Echo agent on the @a2a-js/sdk Express handlers, the reference target of npm run bench.',
  supportedInterfaces: [
    { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  version: '1.0',
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    { id: 'echo', name: 'Echo', description: 'Echoes the text it receives.', tags: ['echo'] },
  ],
});

const requestHandler = new DefaultRequestHandler(card, new CappedTaskStore(storeCap), echoExecutor);
const userBuilder = UserBuilder.noAuthentication;

const app = express();
app.disable('x-powered-by');
app.get('/health', (_req, res) => res.json({ status: 'ok' }));
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
// REST first: its router only answers its own paths; POST / falls through to JSON-RPC.
app.use(restHandler({ requestHandler, userBuilder }));
app.use(jsonRpcHandler({ requestHandler, userBuilder }));

const server = app.listen(port, HOST, () => {
  const { port: actual } = server.address();
  console.log(`SDK Express echo listening on http://${HOST}:${actual} (store cap ${storeCap})`);
});
server.on('error', (err) => {
  console.error(err.message);
  process.exit(1);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
