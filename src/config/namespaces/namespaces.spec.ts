import { Inject, Injectable, Module } from '@nestjs/common';
import { ConfigModule, ConfigService, ConfigType } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { A2aConfigModule, ValidatedEnv } from '../a2a-config.module';
import { assertServePolicy } from '../a2a.config';
import { ConfigValidationError } from '../config-errors';
import { accessConfig, CONFIG_NAMESPACES, harnessConfig, serverConfig, storesConfig } from '.';

const TOKEN = 'operator-token-0123456789';

@Injectable()
class Consumer {
  constructor(
    @Inject(serverConfig.KEY) readonly server: ConfigType<typeof serverConfig>,
    @Inject(accessConfig.KEY) readonly access: ConfigType<typeof accessConfig>,
    @Inject(storesConfig.KEY) readonly stores: ConfigType<typeof storesConfig>,
  ) {}
}

@Module({ providers: [Consumer] })
class ConsumerModule {}

async function build(source: Parameters<typeof A2aConfigModule.forRoot>[0]) {
  const ref = await Test.createTestingModule({
    imports: [A2aConfigModule.forRoot(source), ConsumerModule],
  }).compile();
  return { consumer: ref.get(Consumer), config: ref.get(ConfigService), ref };
}

describe('config namespaces (registerAs, issue #13)', () => {
  it('injects each namespace, built from the one validated env, in a feature module', async () => {
    const { consumer, config, ref } = await build({
      SUPERQODE_A2A_PORT: '9100',
      SUPERQODE_A2A_TOKEN: TOKEN,
      SUPERQODE_A2A_LEASE_MS: 3000,
      SUPERQODE_A2A_HEARTBEAT_MS: 5000,
    });
    expect(consumer.server).toMatchObject({ port: 9100, publicUrl: 'http://127.0.0.1:9100' });
    expect(consumer.access.matchesOperatorToken(TOKEN)).toBe(true);
    expect(consumer.stores.heartbeatMs).toBe(1000); // clamped below a third of the lease
    expect(config.get('server')).toBe(consumer.server);
    expect(config.get('SUPERQODE_A2A_PORT')).toBe(9100);
    await ref.close();
  });

  it('every namespace is loaded (a new one listed in CONFIG_NAMESPACES is injectable)', async () => {
    const { ref } = await build({});
    for (const ns of CONFIG_NAMESPACES) expect(ref.get(ns.KEY)).toBeDefined();
    await ref.close();
  });

  it('never shows a secret when the settings are serialised', async () => {
    const { consumer, ref } = await build({
      SUPERQODE_A2A_TOKEN: TOKEN,
      SUPERQODE_A2A_DATABASE_URL: 'postgres://u:pg-password@127.0.0.1/db',
    });
    const shown = JSON.stringify({ ...consumer, stores: consumer.stores });
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain('pg-password');
    expect(consumer.stores.taskDatabaseUrl).toContain('pg-password');
    await ref.close();
  });

  it('takes an env validated already, without validating again', async () => {
    const validated = ValidatedEnv.load({ SUPERQODE_A2A_PORT: 9200 });
    const { consumer, ref } = await build(validated);
    expect(consumer.server.port).toBe(9200);
    await ref.close();
  });

  it('a namespace loaded outside A2aConfigModule says where its values come from', async () => {
    await expect(
      Test.createTestingModule({ imports: [ConfigModule.forFeature(harnessConfig)] }).compile(),
    ).rejects.toThrow(/A2aConfigModule\.forRoot/);
  });

  it('building the settings applies no policy: a refused bind is checked once, in bootstrap', async () => {
    const raw = { SUPERQODE_A2A_HOST: '0.0.0.0' };
    const { consumer, ref } = await build(raw);
    expect(consumer.server.loopback).toBe(false);
    await ref.close();
    expect(() => assertServePolicy(ValidatedEnv.load(raw).env)).toThrow(/--allow-remote/);
  });
});

describe(ConfigValidationError.name, () => {
  const invalid = (raw: Record<string, unknown>) => {
    try {
      ValidatedEnv.load(raw);
    } catch (err) {
      return err as ConfigValidationError;
    }
    throw new Error('expected invalid configuration');
  };

  it('names the flag when the namer says a flag gave it, with the value typed', () => {
    const err = invalid({ SUPERQODE_A2A_PORT: 'abc' });
    expect(err.describe((v) => (v === 'SUPERQODE_A2A_PORT' ? '--port' : v))).toBe(
      'Invalid configuration:\n  --port "abc": must be a number',
    );
    expect(err.message).toContain('SUPERQODE_A2A_PORT="abc": must be a number');
  });

  it('hints openai-compatible for an OpenAI-protocol server named as a provider', () => {
    const err = invalid({ SUPERQODE_A2A_HARNESS_PROVIDER: 'vllm' });
    expect(err.message).toContain(
      'use SUPERQODE_A2A_HARNESS_PROVIDER=openai-compatible SUPERQODE_A2A_HARNESS_BASE_URL=http://127.0.0.1:8000/v1',
    );
  });

  it('never echoes a secret or the database URL', () => {
    const err = invalid({
      SUPERQODE_A2A_KEY_SECRET: 'short-key-secret',
      SUPERQODE_A2A_DATABASE_URL: 'mysql://u:pw-secret@h/db',
    });
    expect(err.message).not.toMatch(/short-key-secret|pw-secret/);
    expect(err.issues.map((i) => i.variable).sort()).toEqual([
      'SUPERQODE_A2A_DATABASE_URL',
      'SUPERQODE_A2A_KEY_SECRET',
    ]);
  });
});
