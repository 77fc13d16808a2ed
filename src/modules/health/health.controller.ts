import { Controller, Get } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { A2aConfig } from '../../config/a2a.config';
import { Public } from '../../common/decorators/public.decorator';
import { AgentCardService } from '../agent-card/agent-card.service';
import { TASKS_CONNECTION } from '../tasks/tasks.constants';
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
  taskStore: { durable: boolean; reachable: boolean };
  /** Rate-limit counters: callers with a live per-minute window, requests in the daily window. */
  rateLimits: ThrottleStats;
  /** The sandbox harness tools run in (`bwrap` or `local`); absent when the harness is not served. */
  harnessSandbox?: 'bwrap' | 'local';
}

/**
 * Liveness and configuration summary, GET and HEAD, never authenticated nor throttled.
 * `status` is `degraded` (still HTTP 200) when the task store does not answer `SELECT 1`.
 */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly config: A2aConfig,
    private readonly cards: AgentCardService,
    @InjectDataSource(TASKS_CONNECTION) private readonly tasksDb: DataSource,
    private readonly throttles: BoundedThrottlerStorage,
    private readonly harness: HarnessRuntime,
    private readonly skills: SkillRouter,
  ) {}

  @Get()
  async health(): Promise<HealthReport> {
    const card = this.cards.card();
    const reachable = await this.tasksDb.query('SELECT 1').then(() => true, () => false);
    return {
      status: reachable ? 'ok' : 'degraded',
      version: PACKAGE_VERSION,
      agentCardVersion: card.version,
      interfaces: card.supportedInterfaces.map(({ protocolBinding, protocolVersion, url }) => ({
        protocolBinding,
        protocolVersion,
        url,
      })),
      skills: card.skills.map((s) => s.id),
      skillsNotServed: this.skills.notServed(),
      taskStore: { durable: this.config.taskStorePath !== null, reachable },
      rateLimits: this.throttles.stats(),
      ...(this.config.harness.served ? { harnessSandbox: this.harness.sandbox } : {}),
    };
  }
}
