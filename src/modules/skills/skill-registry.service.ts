import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { A2aSkill } from './a2a-skill';
import { A2aSkillProvider, DEFAULT_SKILL_ORDER } from './a2a-skill-provider.decorator';

/**
 * Every skill registered with {@link A2aSkillProvider} anywhere in the application, in card
 * order (`order`, then id). Discovered once, on the first call after Nest has built every
 * provider (lifecycle hooks, requests); nothing reads it from a constructor or factory, because
 * a skill's module may not be instantiated yet at that point.
 */
@Injectable()
export class SkillRegistry {
  private cached: A2aSkill[] | undefined;

  constructor(private readonly discovery: DiscoveryService) {}

  /**
   * @returns The skills, served or not, in card order.
   * @throws {Error} Called before every skill provider was instantiated, a decorated provider
   *   that is not an `A2aSkill`, or two skills with one id.
   */
  all(): A2aSkill[] {
    this.cached ??= this.discover();
    return this.cached;
  }

  private discover(): A2aSkill[] {
    const found = this.discovery
      .getProviders({ metadataKey: A2aSkillProvider.KEY })
      .map((wrapper) => {
        const skill: unknown = wrapper.instance;
        if (!wrapper.isDependencyTreeStatic() || !isSkill(skill)) {
          const name = String(wrapper.name);
          throw new Error(
            skill === undefined || skill === null
              ? `Skill provider ${name} was read before it was instantiated.`
              : `@A2aSkillProvider() on ${name}: a skill is a singleton extending A2aSkill.`,
          );
        }
        const order = this.discovery.getMetadataByDecorator(A2aSkillProvider, wrapper)?.order;
        return { skill, order: order ?? DEFAULT_SKILL_ORDER };
      });
    found.sort(
      (a, b) =>
        a.order - b.order || (a.skill.id < b.skill.id ? -1 : a.skill.id > b.skill.id ? 1 : 0),
    );
    const skills = [...new Set(found.map((f) => f.skill))];
    const ids = skills.map((s) => s.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice !== undefined) throw new Error(`Two skills have the id '${twice}'.`);
    return skills;
  }
}

/** Duck-typed: an embedder's skill may extend another copy of `A2aSkill` (its own install). */
function isSkill(value: unknown): value is A2aSkill {
  const s = value as Partial<A2aSkill> | null | undefined;
  return (
    typeof s?.id === 'string' && typeof s.card === 'function' && typeof s.execute === 'function'
  );
}
