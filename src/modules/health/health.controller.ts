import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ConfigType } from '@nestjs/config';
import { harnessConfig, storesConfig } from '../../config/namespaces';
import { Public } from '../../common/decorators/public.decorator';
import { AgentCardService } from '../agent-card/agent-card.service';
import { TasksService } from '../tasks/tasks.service';
import { PACKAGE_VERSION } from './package-version';
import { SkillRouter } from '../skills/skill-router.service';
import { BoundedThrottlerStorage, ThrottleStats } from '../auth/bounded-throttler.storage';
import { HarnessRuntime } from '../harness/a2a/harness-runtime';

/** `/health` body. */
export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  agentCardVersion: string;
  interfaces: { protocolBinding: string; protocolVersion: string; url: string }[];
  /** Ids of the skills served (the card's skills). */
  skills: string[];
  /** Skills this build has but this deployment does not serve, with why. */
  skillsNotServed: { id: string; reason: string }[];
  /**
   * `reachable`: answers reads; `writable`: a probe write committed and no failed task save is
   * waiting to be ended; `failedWrites`: such saves.
   */
  taskStore: {
    durable: boolean;
    /** Where tasks live: `sqlite` (file), `postgres` (`--database-url`, issue #15) or `memory`. */
    backend: 'sqlite' | 'postgres' | 'memory';
    reachable: boolean;
    writable: boolean;
    failedWrites: number;
  };
  /** Rate-limit counters: callers with a live per-minute window, requests in the daily window. */
  rateLimits: ThrottleStats;
  /** The sandbox harness tools run in (`bwrap` or `local`); absent when the harness is not served. */
  harnessSandbox?: 'bwrap' | 'local';
}

/**
 * Liveness and configuration summary, GET and HEAD, never authenticated nor throttled.
 * `status` is `degraded`, with HTTP 503 (load balancers route away), when the task store does
 * not answer or refuses writes (read-only file, full disk, failed saves not yet ended).
 */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(storesConfig.KEY) private readonly stores: ConfigType<typeof storesConfig>,
    @Inject(harnessConfig.KEY) private readonly harnessSettings: ConfigType<typeof harnessConfig>,
    private readonly cards: AgentCardService,
    private readonly tasks: TasksService,
    private readonly throttles: BoundedThrottlerStorage,
    private readonly harness: HarnessRuntime,
    private readonly skills: SkillRouter,
  ) {}

  @Get()
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const card = this.cards.card();
    const { reachable, writable, failedWrites } = await this.tasks.health();
    if (!writable) void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status: writable ? 'ok' : 'degraded',
      version: PACKAGE_VERSION,
      agentCardVersion: card.version,
      interfaces: card.supportedInterfaces.map(({ protocolBinding, protocolVersion, url }) => ({
        protocolBinding,
        protocolVersion,
        url,
      })),
      skills: card.skills.map((s) => s.id),
      skillsNotServed: this.skills.notServed(),
      taskStore: {
        durable: this.stores.taskStorePath !== null,
        backend: this.stores.taskDatabaseUrl
          ? 'postgres'
          : this.stores.taskStorePath
            ? 'sqlite'
            : 'memory',
        reachable,
        writable,
        failedWrites,
      },
      rateLimits: this.throttles.stats(),
      ...(this.harnessSettings.served ? { harnessSandbox: this.harness.sandbox } : {}),
    };
  }
}
