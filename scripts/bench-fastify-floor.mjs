// The floor target of `npm run bench`: bare Fastify (the HTTP server under our Nest stack) answering
// every bench endpoint with fixed bytes: the card of a running server of ours (fetched once from
// BENCH_FLOOR_CARD_URL, same body and headers) and a canned COMPLETED echo task for SendMessage.
// No A2A processing, no guards: what HTTP alone costs on this machine.
// Usage: BENCH_FLOOR_CARD_URL=http://127.0.0.1:<port>/.well-known/agent-card.json node scripts/bench-fastify-floor.mjs <port>
// Listens on 127.0.0.1 only. Dev tool, not a test.
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 0);
const cardUrl = process.env.BENCH_FLOOR_CARD_URL;
if (!cardUrl?.startsWith('http://127.0.0.1:'))
  throw new Error('BENCH_FLOOR_CARD_URL must be a loopback URL');
const res = await fetch(cardUrl, { headers: { 'a2a-version': '1.0' } });
const card = await res.text();
// Every header of ours but those Node writes per response itself: the same bytes, so the floor
// pays for the same header lines (A2A-Version and the CORS pair were missing until 2026-12-07).
const PER_RESPONSE = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);
const cardHeaders = {};
for (const [name, value] of res.headers) if (!PER_RESPONSE.has(name)) cardHeaders[name] = value;
const task = {
  id: '00000000-0000-4000-8000-000000000001',
  contextId: '00000000-0000-4000-8000-000000000002',
  status: {
    state: 'TASK_STATE_COMPLETED',
    timestamp: new Date().toISOString(),
    message: {
      messageId: '00000000-0000-4000-8000-000000000003',
      role: 'ROLE_AGENT',
      parts: [{ text: 'echo: which harness for rust' }],
    },
  },
  history: [
    {
      messageId: '6f1c2a9e-4b7d-4e21-9a3c-5d8e0f1b2c3d',
      role: 'ROLE_USER',
      parts: [{ text: 'which harness for rust' }],
    },
  ],
  artifacts: [],
};
const rpcReply = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task } });
const restReply = JSON.stringify({ task });

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
app.get('/health', async () => ({ status: 'ok' }));
app.get('/.well-known/agent-card.json', (_req, reply) => {
  reply.headers(cardHeaders).send(card);
});
app.post('/', (req, reply) => {
  JSON.parse(req.body);
  reply.type('application/json').send(rpcReply);
});
app.post('/message::send', (req, reply) => {
  JSON.parse(req.body);
  reply.type('application/json').send(restReply);
});
await app.listen({ host: '127.0.0.1', port });
console.log(`bare Fastify floor listening on http://127.0.0.1:${app.server.address().port}`);
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
