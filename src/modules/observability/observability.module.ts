import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { HarnessRunLog } from './harness-run-log';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { RootController } from './root.controller';
import { TaskCounts } from './task-counts';
import { ShutdownLog } from './startup-banner';

/**
 * Metrics (`GET /metrics`), the root index (`GET /`) and the harness run lines (issue #19).
 * Global like configuration: every feature module records into the one registry of its app.
 */
@Global()
@Module({
  imports: [AuthModule],
  controllers: [RootController, MetricsController],
  providers: [MetricsService, HarnessRunLog, TaskCounts, ShutdownLog],
  exports: [MetricsService, HarnessRunLog],
})
export class ObservabilityModule {}
