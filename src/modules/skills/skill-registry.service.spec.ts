import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { AgentSkill } from '@a2a-js/sdk';
import { A2aSkill } from './a2a-skill';
import { A2aSkillProvider } from './a2a-skill-provider.decorator';
import { SkillRegistry } from './skill-registry.service';

abstract class NamedSkill extends A2aSkill {
  isServed(): boolean {
    return true;
  }
  matchesText(): boolean {
    return false;
  }
  card(): AgentSkill {
    return { id: this.id } as AgentSkill;
  }
  async execute(): Promise<void> {}
  async cancel(): Promise<boolean> {
    return false;
  }
}

@A2aSkillProvider()
@Injectable()
class ZuluSkill extends NamedSkill {
  readonly id = 'zulu';
}

@A2aSkillProvider()
@Injectable()
class AlphaSkill extends NamedSkill {
  readonly id = 'alpha';
}

@A2aSkillProvider({ order: 1 })
@Injectable()
class FirstSkill extends NamedSkill {
  readonly id = 'first';
}

/** Not decorated: not a skill of the app, even though it extends A2aSkill. */
@Injectable()
class UnregisteredSkill extends NamedSkill {
  readonly id = 'unregistered';
}

@Module({ providers: [ZuluSkill, UnregisteredSkill] })
class LateModule {}

@Module({ providers: [AlphaSkill, FirstSkill] })
class EarlyModule {}

describe(SkillRegistry.name, () => {
  it('lists decorated providers of every module by order, then id, whatever the import order', async () => {
    const ref = await Test.createTestingModule({
      imports: [DiscoveryModule, LateModule, EarlyModule],
      providers: [SkillRegistry],
    }).compile();
    expect(
      ref
        .get(SkillRegistry)
        .all()
        .map((s) => s.id),
    ).toEqual(['first', 'alpha', 'zulu']);
    await ref.close();
  });

  it('refuses two skills with one id', async () => {
    @A2aSkillProvider()
    @Injectable()
    class OtherZulu extends NamedSkill {
      readonly id = 'zulu';
    }
    const ref = await Test.createTestingModule({
      imports: [DiscoveryModule, LateModule],
      providers: [SkillRegistry, OtherZulu],
    }).compile();
    expect(() => ref.get(SkillRegistry).all()).toThrow("Two skills have the id 'zulu'.");
    await ref.close();
  });
});
