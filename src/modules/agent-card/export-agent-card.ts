import { Module } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { withCommandContext } from '../../cli/command-context';
import { assertServePolicy, portChosenAtStart } from '../../config/a2a.config';
import { A2aConfigModule, ValidatedEnv } from '../../config/a2a-config.module';
import { RawEnv } from '../../config/env.schema';
import { BuiltInSkillsModule } from '../../built-in-skills.module';
import { AgentCardModule } from './agent-card.module';
import { AgentCardService } from './agent-card.service';

/**
 * Writes the exact bytes a header-less `GET /.well-known/agent-card.json` would return for this
 * configuration (same builder as the server; nothing listens, no task store is opened).
 * @param overrides - The same settings `serve a2a` would use (public URL, legacy, credentials).
 * @param file - Output path; overwritten.
 * @returns The bytes written.
 * @throws {Error} Invalid configuration, refused bind, port 0 without a public URL (no port to
 *   name), or an unwritable file.
 */
export async function exportAgentCard(overrides: RawEnv, file: string): Promise<string> {
  // The skills' module graph holds the task store and the harness ledger: keep both in memory,
  // so exporting never opens (nor migrates, nor reconciles) a live server's files. Neither
  // setting changes the card. No store lifecycle is built (it lives in AppModule only).
  const inMemory: RawEnv = {
    SUPERQODE_A2A_TASK_STORE_ENABLED: false,
    SUPERQODE_A2A_HARNESS_STORE_PATH: ':memory:',
  };
  // The card of a configuration the server would refuse is not exported either.
  const validated = ValidatedEnv.load({ ...overrides, ...inMemory });
  assertServePolicy(validated.env);
  if (portChosenAtStart(validated.env)) {
    throw new Error(
      'Port 0 has no URL to export: the server chooses its port when it starts. Give ' +
        '--public-url (SUPERQODE_A2A_PUBLIC_URL) or a --port other than 0.',
    );
  }
  @Module({
    imports: [A2aConfigModule.forRoot(validated), BuiltInSkillsModule, AgentCardModule],
  })
  class CardExportModule {}
  return withCommandContext(CardExportModule, async (ctx) => {
    const body = ctx.get(AgentCardService).variantFor(undefined).body;
    writeFileSync(file, body);
    return body;
  });
}
