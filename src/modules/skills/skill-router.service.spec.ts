import type { AgentSkill } from '@a2a-js/sdk';
import { A2aSkill } from './a2a-skill';
import type { SkillRegistry } from './skill-registry.service';
import { SkillRouter } from './skill-router.service';
import { textPart } from './message-parts';

/** A skill whose phrase match is a fixed word; the harness-like one is a catch-all. */
class WordSkill extends A2aSkill {
  override readonly catchAll: boolean;
  constructor(
    readonly id: string,
    private readonly word: string | null,
    private readonly served = true,
  ) {
    super();
    this.catchAll = word === null;
  }
  isServed(): boolean {
    return this.served;
  }
  matchesText(text: string): boolean {
    return this.word !== null && text.includes(this.word);
  }
  card(): AgentSkill {
    return { id: this.id } as AgentSkill;
  }
  async execute(): Promise<void> {}
  async cancel(): Promise<boolean> {
    return false;
  }
}

function routerOver(...skills: A2aSkill[]): SkillRouter {
  return new SkillRouter({ all: () => skills } as unknown as SkillRegistry);
}

async function route(router: SkillRouter, text: string): Promise<string> {
  const message = { parts: [textPart(text)], metadata: undefined } as never;
  return (await router.resolve({ metadata: undefined }, message)).id;
}

describe(SkillRouter.name, () => {
  const shortlist = new WordSkill('harness-shortlist', 'harness');
  const harness = new WordSkill('superqode-harness', null);
  const custom = new WordSkill('repo-facts', 'facts');

  it('routes to a skill added after the built-ins by its phrases, the rest to the catch-all', async () => {
    const router = routerOver(shortlist, harness, custom);
    expect(await route(router, 'which harness fits?')).toBe('harness-shortlist');
    expect(await route(router, 'repo facts please')).toBe('repo-facts');
    expect(await route(router, 'fix the failing test')).toBe('superqode-harness');
  });

  it('without a served catch-all, unclaimed text goes to the first served skill (the shortlist)', async () => {
    const router = routerOver(shortlist, new WordSkill('superqode-harness', null, false), custom);
    expect(await route(router, 'fix the failing test')).toBe('harness-shortlist');
    expect(await route(router, 'repo facts please')).toBe('repo-facts');
  });

  it('an explicit superqodeSkill reaches the named skill whatever the text', async () => {
    const router = routerOver(shortlist, harness, custom);
    const message = { parts: [textPart('which harness fits?')], metadata: undefined } as never;
    expect((await router.resolve({ metadata: { superqodeSkill: 'repo-facts' } }, message)).id).toBe(
      'repo-facts',
    );
  });
});
