import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { OWN_PROCESS, startServer } from './bootstrap';
import { processEnv } from './config/process-env';
import { useProcessLoggerForNest } from './modules/observability/process-logger';

/** `npm run start:prod`: serve on the environment's configuration (and `.env`; see README). */
async function main(): Promise<void> {
  // Inside main: an unreadable ./.env is then one error line, not an uncaught stack trace.
  useProcessLoggerForNest((processEnv().NO_COLOR ?? '') !== '');
  await startServer({}, {}, OWN_PROCESS); // logs the start-up banner
}

main().catch((err: Error) => {
  // The process logger (JSON when piped), also when the env file could not be read for it.
  useProcessLoggerForNest(false);
  new Logger('Main').error(err.message);
  process.exit(1);
});
