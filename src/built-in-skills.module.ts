import { Module } from '@nestjs/common';
import { HarnessA2aModule } from './modules/harness/a2a/harness-a2a.module';
import { ShortlistModule } from './modules/shortlist/shortlist.module';

/**
 * The skills this package ships, each contributed by the feature module that owns it through
 * `@A2aSkillProvider()`: `harness-shortlist` (ShortlistModule) and `superqode-harness`
 * (HarnessA2aModule). Imported by the server (`AppModule`) and the card export; an embedder adds
 * its own skill module beside this one (see examples/custom-skill).
 */
@Module({ imports: [ShortlistModule, HarnessA2aModule] })
export class BuiltInSkillsModule {}
