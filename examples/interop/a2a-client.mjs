#!/usr/bin/env node
// Dependency-free A2A 1.0 client (Node 18+, plain fetch): discovers an agent from its base URL,
// sends one text message over JSON-RPC 1.0 (default) or HTTP+JSON 1.0 (--rest), prints the task
// state and reply text. Exit 0 only when the task completed; 1 otherwise; 2 on bad usage.
//
//   node examples/interop/a2a-client.mjs URL "text" [--rest] [--token T]
//
// The token may also come from A2A_TOKEN. It is sent as `Authorization: Bearer` and never printed.
import { randomUUID } from 'node:crypto';

const TIMEOUT_MS = 60_000;
const HEADERS = { 'A2A-Version': '1.0', Accept: 'application/json' };

function usage(message) {
  if (message) process.stderr.write(`error: ${message}\n`);
  process.stderr.write('usage: node a2a-client.mjs URL "text" [--rest] [--token T]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { rest: false, token: process.env.A2A_TOKEN || undefined, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rest') opts.rest = true;
    else if (a === '--token') opts.token = argv[++i] ?? usage('--token needs a value');
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else opts.positional.push(a);
  }
  if (opts.positional.length !== 2) usage();
  [opts.url, opts.text] = opts.positional;
  return opts;
}

// GET the agent card: /.well-known/agent-card.json, then /.well-known/agent.json on 404.
async function fetchCard(url) {
  const base = url.replace(/\/+$/, '').replace(/\/\.well-known\/agent(-card)?\.json$/, '');
  for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
    const res = await fetch(base + path, {
      headers: HEADERS,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status === 404) continue;
    if (!res.ok) throw new Error(`agent card ${base + path}: HTTP ${res.status}`);
    return res.json();
  }
  throw new Error(`no agent card at ${base}/.well-known/`);
}

// The first card interface with the wanted binding at protocol version 1.0.
function pickInterface(card, binding) {
  const found = (card.supportedInterfaces ?? []).find(
    (i) => i.protocolBinding === binding && i.protocolVersion === '1.0',
  );
  if (!found) throw new Error(`the card lists no ${binding} 1.0 interface`);
  return found.url.replace(/\/+$/, '');
}

async function post(url, body, token) {
  const headers = { ...HEADERS, 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const json = await res.json().catch(() => ({}));
  return { status: res.status, json };
}

// SendMessage; returns { task } or { message } (v1.0 JSON), or throws with the agent's error.
async function send(endpoint, rest, text, token) {
  const message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
  if (rest) {
    const { status, json } = await post(`${endpoint}/message:send`, { message }, token);
    if (status !== 200) throw new Error(`HTTP ${status}: ${json.error?.message ?? 'error'}`);
    return json;
  }
  const { status, json } = await post(
    endpoint,
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } },
    token,
  );
  if (json.error) throw new Error(`JSON-RPC ${json.error.code}: ${json.error.message}`);
  if (status !== 200 || !json.result) throw new Error(`HTTP ${status}`);
  return json.result;
}

// Text of parts in either shape: { text } (1.0) or { kind: 'text', text } (0.3).
const partsText = (parts = []) =>
  parts.map((p) => p.text ?? (p.data !== undefined ? JSON.stringify(p.data) : '')).filter(Boolean);
// State in either spelling: TASK_STATE_COMPLETED or completed.
const stateName = (s = '') =>
  s
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const card = await fetchCard(opts.url);
  const endpoint = pickInterface(card, opts.rest ? 'HTTP+JSON' : 'JSONRPC');
  const result = await send(endpoint, opts.rest, opts.text, opts.token);
  process.stdout.write(
    `agent:     ${card.name} ${card.version}\ninterface: ${opts.rest ? 'HTTP+JSON' : 'JSONRPC'} 1.0 at ${endpoint}\n`,
  );
  if (result.message) {
    process.stdout.write(`reply:     message\n\n${partsText(result.message.parts).join('\n')}\n`);
    return 1;
  }
  const task = result.task ?? result;
  const state = stateName(task.status?.state);
  const artifacts = (task.artifacts ?? []).flatMap((a) => partsText(a.parts));
  const text = artifacts.length ? artifacts : partsText(task.status?.message?.parts);
  process.stdout.write(`task:      ${task.id} ${state}\n\n${text.join('\n')}\n`);
  return state === 'completed' ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = 1;
  },
);
