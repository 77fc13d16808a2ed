import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { trustedProxyWarning } from '../../config/a2a.config';
import type { ConfigType } from '@nestjs/config';
import { serverConfig } from '../../config/namespaces';

/**
 * Warns once at start when X-Forwarded-For is trusted (`--trusted-proxy-hops` >= 1): the client
 * address then comes from a header, which only a proxy in front of the server may set.
 * Addresses shape rate limits only; they never grant access to tasks.
 */
@Injectable()
export class TrustedProxyNotice implements OnApplicationBootstrap {
  private readonly logger = new Logger('ClientAddress');

  constructor(@Inject(serverConfig.KEY) private readonly config: ConfigType<typeof serverConfig>) {}

  onApplicationBootstrap(): void {
    const warning = trustedProxyWarning(this.config.trustedProxyHops);
    if (warning) this.logger.warn(warning);
  }
}
