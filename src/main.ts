import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { startServer } from './bootstrap';

/** `npm run start:prod`: serve on the environment's configuration (see README). */
async function main(): Promise<void> {
  const { app, url } = await startServer();
  const logger = new Logger('Main');
  logger.log(`SuperQode A2A agent listening on ${url} (card: ${url}/.well-known/agent-card.json)`);
  void app;
}

main().catch((err: Error) => {
  new Logger('Main').error(err.message);
  process.exit(1);
});
