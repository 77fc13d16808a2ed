import { Module } from '@nestjs/common';
import { HARNESS_COMMANDS } from './harness.command';

/**
 * `superqode harness run|resume|validate|runs|show|export`. Each command opens the harness on
 * its `--harness-store` ledger through `withHarness` when it runs.
 */
@Module({ providers: [...HARNESS_COMMANDS] })
export class HarnessCommandsModule {}
