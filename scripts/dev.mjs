#!/usr/bin/env node
// `npm run start:dev [-- <superqode args>]`: compiles src/ to dist/ with `tsc --watch`
// (incremental) and (re)starts the server after every compile: `node dist/main.js` (the
// environment and ./.env configure it), or `node dist/cli.js <args>` when arguments are given
// (e.g. `npm run start:dev -- serve a2a --port 9000`). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tscBin = require.resolve('typescript/bin/tsc', { paths: [root] });
const args = process.argv.slice(2);
const entry = args.length ? [join(root, 'dist/cli.js'), ...args] : [join(root, 'dist/main.js')];

const tsc = spawn(
  process.execPath,
  [tscBin, '-p', join(root, 'tsconfig.build.json'), '--watch', '--preserveWatchOutput'],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);

let server = null;
let stopping = false;

function say(line) {
  process.stderr.write(`[dev] ${line}\n`);
}

/** Stops the running server (SIGTERM: graceful, stores closed), then calls `then`. */
function stopServer(then) {
  if (!server) return then();
  const child = server;
  server = null;
  child.once('exit', then);
  child.kill('SIGTERM');
}

function startServer() {
  server = spawn(process.execPath, entry, { cwd: process.cwd(), stdio: 'inherit' });
  const child = server;
  child.once('exit', (code, signal) => {
    if (server === child && !stopping)
      say(`server exited (${signal ?? code}); waiting for a change`);
    if (server === child) server = null;
  });
}

// tsc ends every compile with "Found N errors. Watching for file changes."
let buffered = '';
tsc.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffered += chunk.toString('utf8');
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    const done = /Found (\d+) errors?\. Watching for file changes/.exec(line);
    if (!done || stopping) continue;
    say(server ? 'compiled: restarting the server' : 'compiled: starting the server');
    stopServer(startServer);
  }
});
tsc.once('exit', (code) => {
  if (!stopping) say(`tsc exited (${code})`);
  stopping = true;
  stopServer(() => process.exit(code ?? 1));
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopping = true;
    tsc.kill('SIGTERM');
    stopServer(() => process.exit(0));
  });
}
