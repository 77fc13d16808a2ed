// "Ours + echo agent" target of `npm run bench`: this server built through the public embedding
// API (`createA2AServer` of dist/index.js) with one embedded skill that runs the SDK Express
// reference's echo turn (scripts/bench-echo-agent.mjs), so both servers answer the same ~1 KB task.
// Usage: node scripts/bench-echo-server.mjs <port> [sqlite-path | memory]
// Settings come from the environment as for dist/main.js (the bench sets rate limits to 0).
// Listens on 127.0.0.1 only. Dev tool, not a test.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { publishEcho } from './bench-echo-agent.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { A2aSkill, createA2AServer } = createRequire(import.meta.url)(join(root, 'dist/index.js'));

const port = Number(process.argv[2] ?? 0);
const store = process.argv[3] ?? 'memory';
if (!Number.isInteger(port) || port < 0 || port > 65535)
  throw new Error(`bad port: ${process.argv[2]}`);

/** The echo turn as one of our skills: the card lists it, the router sends every turn to it. */
class EchoSkill extends A2aSkill {
  id = 'echo';
  isServed() {
    return true;
  }
  matchesText() {
    return true;
  }
  card() {
    return {
      id: 'echo',
      name: 'Echo',
      description: 'Echoes the text it receives.',
      tags: ['echo'],
      examples: [],
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
      securityRequirements: [],
    };
  }
  async execute(context, bus) {
    publishEcho(context, bus);
  }
  async cancel() {
    return false;
  }
}

const server = createA2AServer({
  skills: [new EchoSkill()],
  taskStorePath: store === 'memory' ? null : store,
  harnessStorePath: ':memory:',
  // This process is the server, as `npm run start:prod` is: the same V8 heap growth (2× live).
  heapGrowth: true,
});
const url = await server.listen({ host: '127.0.0.1', port });
console.log(`ours + echo skill (${store}) listening on ${url}`);
const stop = () =>
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
