import type { DynamicModule, Provider, Type } from '@nestjs/common';
import type { A2aSkill } from './a2a-skill';
import { A2aSkillProvider } from './a2a-skill-provider.decorator';

/**
 * A skill handed to the server by an embedder (`createA2AServer({ skills })`, `AppModule.forRoot`):
 * a Nest module whose providers include an `@A2aSkillProvider()` class (imported as is), or a
 * ready `A2aSkill` instance (served as a singleton; card order from its class's decorator, else
 * after the built-ins).
 */
export type A2aSkillContribution = A2aSkill | Type<unknown> | DynamicModule;

/**
 * Splits contributions into modules to import and providers to register.
 * @throws {TypeError} A contribution that is neither a module nor a skill instance (a bare skill
 *   class: pass its module, or an instance).
 */
export function skillContributions(contributions: readonly A2aSkillContribution[]): {
  imports: (Type<unknown> | DynamicModule)[];
  providers: Provider[];
} {
  const imports: (Type<unknown> | DynamicModule)[] = [];
  const providers: Provider[] = [];
  for (const c of contributions) {
    if (isSkillInstance(c)) providers.push(skillInstanceProvider(c));
    else if (
      typeof c === 'function' &&
      Reflect.getMetadata('providers', c) === undefined &&
      'card' in c.prototype
    ) {
      throw new TypeError(
        `${c.name} is a skill class: pass the module that provides it, or an instance.`,
      );
    } else imports.push(c as Type<unknown> | DynamicModule);
  }
  return { imports, providers };
}

function isSkillInstance(c: A2aSkillContribution): c is A2aSkill {
  return typeof c === 'object' && c !== null && typeof (c as A2aSkill).execute === 'function';
}

/**
 * A class provider whose construction yields `skill`: `useValue` providers are invisible to
 * Nest's `DiscoveryService`, class providers carrying the decorator are not.
 */
function skillInstanceProvider(skill: A2aSkill): Provider {
  class EmbeddedSkill {
    constructor() {
      return skill;
    }
  }
  A2aSkillProvider()(EmbeddedSkill);
  return { provide: Symbol(`A2aSkill:${skill.id}`), useClass: EmbeddedSkill };
}
