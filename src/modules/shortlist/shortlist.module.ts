import { Module } from '@nestjs/common';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { HarnessA2aModule } from '../harness/a2a/harness-a2a.module';
import { CatalogueService } from './catalogue.service';
import { ShortlistService } from './shortlist.service';
import { ShortlistSkill } from './shortlist.skill';

/**
 * The harness-shortlist domain: the shipped Hub catalogue (validated at boot by
 * {@link CatalogueService}), {@link ShortlistService} and its A2A adapter {@link ShortlistSkill}.
 */
@Module({
  imports: [RuntimeModule, HarnessA2aModule],
  providers: [CatalogueService, ShortlistService, ShortlistSkill],
  exports: [ShortlistService, ShortlistSkill],
})
export class ShortlistModule {}
