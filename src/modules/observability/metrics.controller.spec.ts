import type { FastifyReply, FastifyRequest } from 'fastify';
import { accessConfig, serverConfig } from '../../config/namespaces';
import { loadEnv } from '../../config/load-env';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

const TOKEN = 'operator-token-for-tests-0123456789';

function controllerFor(host: string, metrics: MetricsService): MetricsController {
  const env = loadEnv({
    SUPERQODE_A2A_HOST: host,
    SUPERQODE_A2A_ALLOW_REMOTE: true,
    SUPERQODE_A2A_TOKEN: TOKEN,
    SUPERQODE_A2A_HARNESS_ENABLED: false,
    SUPERQODE_A2A_PUBLIC_URL: 'https://agent.example',
  });
  return new MetricsController(metrics, serverConfig.build(env), accessConfig.build(env));
}

/** A reply that records what was sent. */
function aReply(): { reply: FastifyReply; sent: () => unknown } {
  let body: unknown;
  const reply = {
    header: () => reply,
    send: (b: unknown) => ((body = b), reply),
  } as unknown as FastifyReply;
  return { reply, sent: () => body };
}

const request = (authorization?: string): FastifyRequest =>
  ({ headers: authorization ? { authorization } : {} }) as FastifyRequest;

describe(MetricsController.name, () => {
  const metrics = new MetricsService();

  it('on a remote bind answers only the operator token (401 otherwise)', async () => {
    const controller = controllerFor('0.0.0.0', metrics);
    await expect(controller.scrape(request(), aReply().reply)).rejects.toMatchObject({
      status: 401,
    });
    await expect(
      controller.scrape(request('Bearer not-the-operator-token-123'), aReply().reply),
    ).rejects.toMatchObject({ status: 401 });
    const { reply, sent } = aReply();
    await controller.scrape(request(`Bearer ${TOKEN}`), reply);
    expect(sent()).toContain('superqode_a2a_http_requests_total');
  });

  it('on a loopback bind answers without a credential', async () => {
    const { reply, sent } = aReply();
    await controllerFor('127.0.0.1', metrics).scrape(request(), reply);
    expect(sent()).toContain('# TYPE superqode_a2a_http_request_duration_seconds histogram');
  });
});
