import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { validateEnvVariables } from '../../../config/env.schema';
import { processEnv } from '../../../config/process-env';
import type { ProcessEnv } from '../../../config/process-env';
import { ApiKeysModule } from '../api-keys.module';
import {
  API_KEY_SETTING_PROBLEMS,
  API_KEY_SETTINGS_UNREADABLE,
  API_KEY_VARIABLES,
} from '../api-keys.service';
import { A2A_KEYS_COMMANDS } from './a2a-keys.command';

/**
 * The API-key settings as the server reads them: the environment over the env file (`.env`),
 * blank = unset, each variable validated by the server's schema on its own. An invalid one is
 * kept raw and reported (`status`; `issue` and `verify` refuse to use it), so `a2a-keys secret`
 * still runs to replace a bad secret (also with an unreadable `./.env`), and an unrelated invalid
 * server setting stops nothing here.
 */
function apiKeySettings(): Record<string, unknown> {
  let env: ProcessEnv;
  try {
    env = processEnv();
  } catch (err) {
    // `./.env` unreadable (a directory, no permission): issue, verify and status say so.
    return { [API_KEY_SETTINGS_UNREADABLE]: (err as Error).message };
  }
  const { values, problems } = validateEnvVariables(API_KEY_VARIABLES, env);
  return { ...values, [API_KEY_SETTING_PROBLEMS]: problems };
}

/** `superqode a2a-keys secret|issue|verify|status`, on the API-key service. */
@Module({
  imports: [
    ConfigModule.forRoot({
      ignoreEnvFile: true,
      validatePredefined: false,
      skipProcessEnv: true,
      load: [apiKeySettings],
    }),
    ApiKeysModule,
  ],
  providers: [...A2A_KEYS_COMMANDS],
})
export class A2aKeysCommandsModule {}
