import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { validateEnvVariables } from '../../../config/env.schema';
import { processEnv } from '../../../config/process-env';
import { ApiKeysModule } from '../api-keys.module';
import { API_KEY_SETTING_PROBLEMS, API_KEY_VARIABLES } from '../api-keys.service';
import { A2A_KEYS_COMMANDS } from './a2a-keys.command';

/**
 * The API-key settings as the server reads them: the environment over the env file (`.env`),
 * blank = unset, each variable validated by the server's schema on its own. An invalid one is
 * kept raw and reported (`status`), so `a2a-keys secret` still runs to replace a bad secret, and
 * an unrelated invalid server setting stops nothing here.
 */
function apiKeySettings(): Record<string, unknown> {
  const { values, problems } = validateEnvVariables(API_KEY_VARIABLES, processEnv());
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
