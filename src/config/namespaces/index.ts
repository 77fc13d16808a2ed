import { accessConfig, limitsConfig } from './access.config';
import { cardConfig, shortlistConfig } from './card.config';
import type { ConfigNamespace } from './config-namespace';
import { harnessConfig } from './harness.config';
import { httpConfig, serverConfig } from './server.config';
import { storesConfig } from './stores.config';

export * from './access.config';
export * from './card.config';
export * from './config-namespace';
export * from './harness.config';
export * from './server.config';
export * from './stores.config';

/**
 * Every settings namespace, loaded by `A2aConfigModule.forRoot` from the one validated env.
 * A new namespace is added here (see docs/architecture.md, "Where a new setting goes").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const CONFIG_NAMESPACES: readonly ConfigNamespace<any>[] = [
  serverConfig,
  httpConfig,
  accessConfig,
  limitsConfig,
  storesConfig,
  harnessConfig,
  cardConfig,
  shortlistConfig,
];
