import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { OWN_PROCESS, startServer } from './bootstrap';
import { processEnv } from './config/process-env';
import { useProcessLoggerForNest } from './modules/observability/process-logger';

/** Whether the process logger is Nest's (it needs the env file, which may not be readable). */
let processLogger = false;

/** `npm run start:prod`: serve on the environment's configuration (and `.env`; see README). */
async function main(): Promise<void> {
  // Inside main: an unreadable ./.env is then one error line, not an uncaught stack trace.
  useProcessLoggerForNest((processEnv().NO_COLOR ?? '') !== '');
  processLogger = true;
  await startServer({}, {}, OWN_PROCESS); // logs the start-up banner
}

main().catch((err: Error) => {
  if (!processLogger) useProcessLoggerForNest(false); // JSON when piped, as every other line
  new Logger('Main').error(err.message);
  process.exit(1);
});
