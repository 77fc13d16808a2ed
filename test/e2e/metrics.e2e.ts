import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { OPERATOR_TOKEN } from '../fixtures/credentials';
import { startTestServer, TestServer } from '../utils/test-app';

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe('GET /metrics (Prometheus, issue #19)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 3,
    });
  });
  afterAll(() => server.close());

  it('is open on a loopback bind and its counters move with the requests', async () => {
    const before = await scrape(server.url);
    await post(server.url, aJsonRpcRequest('SendMessage', { message: aMessage('hi') }), {
      ...V1,
      Authorization: `Bearer ${OPERATOR_TOKEN}`,
    });
    await post(server.url, aJsonRpcRequest('GetTask', { id: 'x' }), {
      ...V1,
      Authorization: 'Bearer wrong-token-wrong-token',
    });
    for (let i = 0; i < 4; i++) await fetch(`${server.url}/tasks`, { headers: V1 });
    const after = await scrape(server.url);

    const jsonrpc200 = 'binding="jsonrpc",method="POST",status="200"';
    expect(sample(after, 'superqode_a2a_http_requests_total', jsonrpc200)).toBe(
      sample(before, 'superqode_a2a_http_requests_total', jsonrpc200) + 1,
    );
    expect(
      sample(after, 'superqode_a2a_auth_rejections_total', 'binding="jsonrpc",status="401"'),
    ).toBe(1);
    expect(sample(after, 'superqode_a2a_rate_limit_rejections_total', 'binding="rest"')).toBe(1);
    expect(
      sample(
        after,
        'superqode_a2a_http_request_duration_seconds_count',
        'binding="rest",method="GET"',
      ),
    ).toBe(4);
    expect(sample(after, 'superqode_a2a_tasks', 'state="TASK_STATE_COMPLETED"')).toBe(1);
    expect(after).toMatch(/^superqode_a2a_store_write_errors_total 0$/m);
    expect(after).toMatch(/^superqode_a2a_process_cpu_seconds_total /m);
    expect(after).not.toContain(OPERATOR_TOKEN);
  });

  it('every metric the sample Grafana dashboard charts is exposed (docs/grafana-dashboard.json)', async () => {
    const dashboard = readFileSync(join(__dirname, '../../docs/grafana-dashboard.json'), 'utf8');
    const names = new Set(
      [...dashboard.matchAll(/superqode_a2a_\w+/g)].map((m) =>
        m[0].replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    expect(names.size).toBeGreaterThan(5);
    const text = await scrape(server.url);
    for (const name of names) expect(text).toContain(`# TYPE ${name} `);
  });

  it('GET / points to the card, /health and the docs (JSON; HTML for a browser), ungated', async () => {
    const json = await fetch(`${server.url}/`);
    expect(json.status).toBe(200);
    expect(await json.json()).toMatchObject({
      agentCard: `${server.url}/.well-known/agent-card.json`,
      health: `${server.url}/health`,
      docs: expect.any(String),
    });
    const html = await fetch(`${server.url}/`, { headers: { Accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toContain(`href="${server.url}/health"`);
  });
});
