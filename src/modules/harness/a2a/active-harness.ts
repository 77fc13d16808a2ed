import type { FactoryProvider } from '@nestjs/common';
import { HarnessProtocolController } from '../protocol/harness-protocol';

/**
 * Token an embedding application may provide (see `createA2AServer({ controller })`) to serve
 * its own Harness Protocol controller instead of the built-in Core adapter.
 */
export const EMBEDDED_HARNESS_CONTROLLER = Symbol('EMBEDDED_HARNESS_CONTROLLER');

/** Token of the controller the A2A harness skill uses. */
export const ACTIVE_HARNESS = Symbol('ACTIVE_HARNESS');

/** The embedded controller when one was given, else the module's Core adapter. */
export const activeHarnessProvider: FactoryProvider<HarnessProtocolController> = {
  provide: ACTIVE_HARNESS,
  inject: [HarnessProtocolController, { token: EMBEDDED_HARNESS_CONTROLLER, optional: true }],
  useFactory: (core: HarnessProtocolController, embedded?: HarnessProtocolController) =>
    embedded ?? core,
};
