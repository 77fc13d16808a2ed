import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { ApiKeysConfig, ApiKeysService } from './api-keys.service';

/**
 * Signed API keys (issue, verify, status). Reads SUPERQODE_A2A_KEY_SECRET,
 * SUPERQODE_A2A_REVOKED_KEYS and SUPERQODE_A2A_TOKEN through `ConfigService`, so the app must
 * also import `A2aConfigModule.forRoot()` (which validates them at boot).
 */
@Module({
  imports: [ConfigModule, RuntimeModule],
  providers: [ApiKeysConfig, ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
