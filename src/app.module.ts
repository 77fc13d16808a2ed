import { DynamicModule, Module } from '@nestjs/common';
import { A2aConfigModule } from './config/a2a-config.module';
import { RawEnv } from './config/env.schema';
import { AgentCardModule } from './modules/agent-card/agent-card.module';
import { AuthModule } from './modules/auth/auth.module';
import { HealthModule } from './modules/health/health.module';
import { ConfiguredTasksModule } from './modules/tasks/configured-tasks.module';
import { TransportModule } from './modules/transport/transport.module';

/**
 * The A2A server: configuration, access tiers and rate limits, durable tasks, discovery, the
 * bindings and health.
 * `AppModule.forRoot(overrides)` is what `main.ts`, `superqode serve a2a` and the e2e suites use.
 */
@Module({})
export class AppModule {
  /** @param overrides - Settings that win over the environment (CLI flags, tests). */
  static forRoot(overrides: RawEnv = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        A2aConfigModule.forRoot(overrides),
        AuthModule,
        ConfiguredTasksModule,
        AgentCardModule,
        TransportModule,
        HealthModule,
      ],
    };
  }
}
