import { SetMetadata } from '@nestjs/common';

/** Metadata key read by the auth guard: routes carrying it are served without credentials. */
export const IS_PUBLIC_KEY = 'superqode:isPublic';

/**
 * Marks a controller or handler as public (discovery, health): never authenticated,
 * never throttled. Every other route is denied by default once the auth guard is installed.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);
