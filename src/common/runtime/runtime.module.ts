import { Module } from '@nestjs/common';
import { Clock, IdGenerator } from './clock';

/** Clock and id providers (seams tests may override with `overrideProvider`). */
@Module({ providers: [Clock, IdGenerator], exports: [Clock, IdGenerator] })
export class RuntimeModule {}
