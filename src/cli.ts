#!/usr/bin/env node
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';

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
    errorHandler: (err: Error & { code?: string; exitCode?: number }) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') process.exit(0);
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    },
  });
}

void main();
