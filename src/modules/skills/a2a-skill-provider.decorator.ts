import { DiscoveryService } from '@nestjs/core';

/** Options of {@link A2aSkillProvider}. */
export interface A2aSkillProviderOptions {
  /**
   * Position in the Agent Card's `skills` and in phrase routing: lower first; equal orders by
   * skill id. Built-ins: the shortlist is {@link SHORTLIST_SKILL_ORDER}, the harness
   * {@link HARNESS_SKILL_ORDER}; unset is {@link DEFAULT_SKILL_ORDER} (after the built-ins).
   */
  order?: number;
}

/** Card position of the built-in `harness-shortlist` skill. */
export const SHORTLIST_SKILL_ORDER = 10;
/** Card position of the built-in `superqode-harness` skill. */
export const HARNESS_SKILL_ORDER = 20;
/** Card position of a skill that sets no `order`: after the built-ins. */
export const DEFAULT_SKILL_ORDER = 100;

/**
 * Marks a provider as one {@link A2aSkill} this agent serves: the one registration seam for
 * skills. Put it on an `@Injectable()` class extending `A2aSkill`, list the class in the
 * providers of the feature module that owns it, and import that module into the app;
 * `SkillRegistry` finds it with Nest's `DiscoveryService` (no core file lists skills).
 * Only class providers are discovered (Nest does not inspect `useValue`/`useFactory` ones): serve a
 * ready instance through `createA2AServer({ skills: [instance] })` / `AppModule.forRoot`.
 * @example
 *   @A2aSkillProvider({ order: 50 })
 *   @Injectable()
 *   export class RepoFactsSkill extends A2aSkill { ... }
 * @see https://docs.nestjs.com/fundamentals/discovery-service
 */
export const A2aSkillProvider = DiscoveryService.createDecorator<A2aSkillProviderOptions>();
