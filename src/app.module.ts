import { DynamicModule, Global, Module } from '@nestjs/common';
import { EMBEDDED_HARNESS_CONTROLLER } from './modules/harness/a2a/active-harness';
import { HarnessProtocolController } from './modules/harness/protocol/harness-protocol';
import { A2aConfigModule, ValidatedEnv } from './config/a2a-config.module';
import { RawEnv } from './config/env.schema';
import { A2aSkillContribution, skillContributions } from './modules/skills/skill-contributions';
import { AgentCardModule } from './modules/agent-card/agent-card.module';
import { BuiltInSkillsModule } from './built-in-skills.module';
import { AuthModule } from './modules/auth/auth.module';
import { HealthModule } from './modules/health/health.module';
import { ConfiguredTasksModule } from './modules/tasks/configured-tasks.module';
import { TransportModule } from './modules/transport/transport.module';
import { StoreLifecycleModule } from './modules/tasks/lifecycle/store-lifecycle.module';
import { ObservabilityModule } from './modules/observability/observability.module';

/** What an embedding application hands in: its Harness Protocol controller, its own skills. */
export interface AppEmbedding {
  harnessController?: HarnessProtocolController;
  /** Skill modules or instances served after the built-ins (see `A2aSkillProvider`). */
  skills?: readonly A2aSkillContribution[];
}

/** Global providers an embedding application hands in (none by default). */
@Global()
@Module({})
class EmbeddingModule {
  static forRoot(embedding: AppEmbedding): DynamicModule {
    const { imports, providers: skills } = skillContributions(embedding.skills ?? []);
    const controller = embedding.harnessController;
    const providers = controller
      ? [{ provide: EMBEDDED_HARNESS_CONTROLLER, useValue: controller }]
      : [];
    return {
      module: EmbeddingModule,
      imports,
      providers: [...providers, ...skills],
      exports: providers.map((p) => p.provide),
    };
  }
}

/**
 * The A2A server: configuration, access tiers and rate limits, durable tasks, discovery, the
 * bindings and health.
 * `AppModule.forRoot(overrides)` is what `main.ts`, `superqode serve a2a` and the e2e suites use.
 */
@Module({})
export class AppModule {
  /**
   * @param overrides - Settings that win over the environment (CLI flags, tests), or an env
   *   validated already (bootstrap's `bootConfig`).
   * @param embedding - For embedding applications: their own Harness Protocol controller and skills.
   * @throws {TypeError} A skill contribution that is neither a module nor a skill instance.
   */
  static forRoot(
    overrides: RawEnv | ValidatedEnv = {},
    embedding: AppEmbedding = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EmbeddingModule.forRoot(embedding),
        A2aConfigModule.forRoot(overrides),
        AuthModule,
        ConfiguredTasksModule,
        BuiltInSkillsModule,
        AgentCardModule,
        TransportModule,
        HealthModule,
        StoreLifecycleModule,
        ObservabilityModule,
      ],
    };
  }
}
