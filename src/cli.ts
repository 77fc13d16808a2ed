#!/usr/bin/env node
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';
import { PACKAGE_VERSION } from './modules/health/package-version';

/**
 * `superqode` CLI entry point. Failing commands log one line and exit 1 (nest-commander's default
 * handler only prints, which would exit 0); usage errors exit 2.
 */
async function main(): Promise<void> {
  await CommandFactory.run(CliModule, {
    logger: ['error', 'warn'],
    serviceErrorHandler: (err: Error) => {
      new Logger('superqode').error(err.message);
      process.exitCode = 1;
    },
    cliName: 'superqode',
    version: PACKAGE_VERSION,
    errorHandler: (err: Error & { code?: string; exitCode?: number }) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') process.exit(0);
      // commander has printed its own usage errors already.
      if (!err.code?.startsWith('commander.')) process.stderr.write(`${err.message}\n`);
      process.exit(2);
    },
  });
}

void main();
