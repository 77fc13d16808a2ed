import { Module } from '@nestjs/common';
import { Clock, IdGenerator } from './clock';
import { ProcessInstance } from './process-instance';

/** Clock, id and process-identity providers (seams tests may override with `overrideProvider`). */
@Module({
  providers: [Clock, IdGenerator, ProcessInstance],
  exports: [Clock, IdGenerator, ProcessInstance],
})
export class RuntimeModule {}
