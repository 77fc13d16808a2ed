/**
 * Custom-skill example: the built-in skills plus `repo-facts`, served by `createA2AServer`.
 *
 *   npm run build:tools && node dist-tools/examples/custom-skill/repo-facts-server.js 8011
 */
import { createA2AServer } from '../../src/index';
import { RepoFactsModule } from './repo-facts.module';

if (require.main === module) {
  const port = Number(process.argv[2] ?? 8011);
  const server = createA2AServer({
    skills: [RepoFactsModule],
    taskStorePath: null,
    harnessStorePath: ':memory:',
  });
  void server
    .listen({ host: '127.0.0.1', port })
    .then((url) => process.stdout.write(`repo-facts agent on ${url}\n`));
  // The server adds no signal handler to this process: stop it (and its stores) on Ctrl+C here.
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
