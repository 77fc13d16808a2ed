import { Injectable, Logger } from '@nestjs/common';
import type {
  INestApplicationContext,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { describeStore } from '../../common/database/database-url';
import type { ConfigType } from '@nestjs/config';
import {
  AccessSettings,
  accessConfig,
  harnessConfig,
  limitsConfig,
  serverConfig,
  storesConfig,
} from '../../config/namespaces';
import { AgentCardService } from '../agent-card/agent-card.service';
import { HarnessRuntime } from '../harness/a2a/harness-runtime';
import { SkillRouter } from '../skills/skill-router.service';
import { PACKAGE_VERSION } from '../health/package-version';

/** A per-minute or per-day ceiling as text (`0` = no limit). */
function limit(n: number, unit: string): string {
  return n === 0 ? 'unlimited' : `${n}/${unit}`;
}

/** Who is let in: operator token, API keys, anonymous callers. */
function authMode(config: AccessSettings): string {
  const modes = [
    config.operatorTokenConfigured ? 'operator token' : '',
    config.keySecretConfigured ? 'API keys' : '',
    config.allowAnonymous ? 'anonymous' : '',
  ].filter(Boolean);
  return modes.length ? modes.join(' + ') : 'nobody (no token, no key secret, --no-anonymous)';
}

/**
 * The start-up banner: a few lines saying what this server serves and how. Never a secret: the
 * database URL is redacted, tokens only appear as "configured".
 * @param listening - The address the server listens on (`app.getUrl()`: the port chosen for 0).
 * @param metricsListener - URL of the `--metrics-host` listener, when one runs.
 * @returns Lines in order: listening URL and card, skills (and why one is not served), harness,
 *   stores, auth and limits.
 */
export function startupBanner(
  app: INestApplicationContext,
  listening: string,
  metricsListener?: string,
): string[] {
  const config = app.get<ConfigType<typeof serverConfig>>(serverConfig.KEY);
  const access = app.get<ConfigType<typeof accessConfig>>(accessConfig.KEY);
  const limits = app.get<ConfigType<typeof limitsConfig>>(limitsConfig.KEY);
  const stores = app.get<ConfigType<typeof storesConfig>>(storesConfig.KEY);
  const harness = app.get<ConfigType<typeof harnessConfig>>(harnessConfig.KEY);
  const skills = app
    .get(AgentCardService)
    .card()
    .skills.map((s) => s.id);
  const notServed = app
    .get(SkillRouter)
    .notServed()
    .map((s) => `${s.id} not served: ${s.reason}`);
  // What the card advertises (`startServer` replaces port 0 by the port it chose).
  const url = config.publicUrl;
  const lines = [
    `SuperQode A2A ${PACKAGE_VERSION} listening on ${listening}${listening === url ? '' : ` (public URL ${url})`}`,
    `Agent Card: ${url}/.well-known/agent-card.json; health: ${url}/health; metrics: ${url}/metrics` +
      (metricsListener ? ` and ${metricsListener} (no credential)` : ''),
    `Skills: ${skills.join(', ') || 'none'}${notServed.length ? `; ${notServed.join('; ')}` : ''}`,
  ];
  if (harness.served) {
    const h = app.get(HarnessRuntime);
    const model = [h.model.provider, h.model.model ?? h.spec.model_policy.primary]
      .filter(Boolean)
      .join('/');
    lines.push(
      `Harness: spec ${h.specSource}, model ${model || 'none'}, sandbox ${h.sandbox}, ` +
        `working dir ${h.workingDir}, access ${harness.access}`,
    );
  }
  const ledger = harness.served
    ? `; harness ledger ${describeStore(stores.harnessDatabaseUrl, harness.storePath)}`
    : '';
  lines.push(
    `Stores: tasks ${describeStore(stores.taskDatabaseUrl, stores.taskStorePath)}${ledger}`,
  );
  lines.push(
    `Auth: ${authMode(access)}; limits: anonymous ${limit(limits.anonymousPerMinute, 'min')}, ` +
      `keyed ${limit(limits.keyedPerMinute, 'min')}, all callers ${limit(limits.globalPerDay, 'day')}, ` +
      `body ${config.maxBodyBytes} bytes`,
  );
  return lines;
}

/**
 * One line when the server stops (signal or `app.close()`), after the stores are closed; none
 * when it never listened (a failed bind is reported by itself, see `startServer`).
 */
@Injectable()
export class ShutdownLog implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('superqode');
  private listened = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onListen', async () => {
      this.listened = true;
    });
  }

  onApplicationShutdown(signal?: string): void {
    if (this.listened) this.logger.log(`SuperQode A2A stopped${signal ? ` (${signal})` : ''}`);
  }
}
