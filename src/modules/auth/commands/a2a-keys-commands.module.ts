import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys.module';
import { A2A_KEYS_COMMANDS } from './a2a-keys.command';

/** `superqode a2a-keys secret|issue|verify|status`, on the API-key service. */
@Module({ imports: [ApiKeysModule], providers: [...A2A_KEYS_COMMANDS] })
export class A2aKeysCommandsModule {}
