import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ProcessInstance } from '../../../common/runtime/process-instance';
import { TASKS_CONNECTION } from '../tasks.constants';
import { TasksService } from '../tasks.service';
import { TaskLeases } from './task-leases';

const NOW_MS = 1_000_000;
const LEASE_MS = 30_000;
const key = { tenant: '', owner: 'alice', taskId: 't1' };

describe(TaskLeases.name, () => {
  let row: Record<string, unknown> | undefined;
  let gone: Set<string>;
  let leases: TaskLeases;
  const query = jest.fn(() => Promise.resolve(row ? [row] : []));

  beforeEach(async () => {
    row = undefined;
    gone = new Set();
    query.mockClear();
    const moduleRef = await Test.createTestingModule({
      providers: [
        TaskLeases,
        {
          provide: getDataSourceToken(TASKS_CONNECTION),
          useValue: { query, driver: { options: { type: 'postgres' } } },
        },
        { provide: ProcessInstance, useValue: { id: 'host:1:aaaaaaaa' } },
        {
          provide: TasksService,
          useValue: {
            isGone: (owner: string) => gone.has(owner),
            leaseCutoffMs: () => NOW_MS - LEASE_MS,
          },
        },
      ],
    }).compile();
    leases = moduleRef.get(TaskLeases);
  });

  const leased = (state: string, owner: string | null, renewedMs: number | string | null) => {
    row = { state, owner, renewedMs };
  };

  it('names the other owner of a WORKING task under a live lease (bigint as a string, PostgreSQL)', async () => {
    leased('TASK_STATE_WORKING', 'host:2:bbbbbbbb', String(NOW_MS - 1_000));
    await expect(leases.heldElsewhere(key)).resolves.toBe('host:2:bbbbbbbb');
    expect(query).toHaveBeenCalledWith(expect.stringContaining('"id" = $3'), ['', 'alice', 't1']);
  });

  it('counts a SUBMITTED task renewed exactly at the cutoff as live', async () => {
    leased('TASK_STATE_SUBMITTED', 'host:2:bbbbbbbb', NOW_MS - LEASE_MS);
    await expect(leases.heldElsewhere(key)).resolves.toBe('host:2:bbbbbbbb');
  });

  it('an expired lease is abandoned, not running elsewhere', async () => {
    leased('TASK_STATE_WORKING', 'host:2:bbbbbbbb', NOW_MS - LEASE_MS - 1);
    await expect(leases.heldElsewhere(key)).resolves.toBeUndefined();
  });

  it('a lease of an owner known to be gone is abandoned at once', async () => {
    leased('TASK_STATE_WORKING', 'host:2:bbbbbbbb', NOW_MS);
    gone.add('host:2:bbbbbbbb');
    await expect(leases.heldElsewhere(key)).resolves.toBeUndefined();
  });

  it('a task leased by this instance is not elsewhere', async () => {
    leased('TASK_STATE_WORKING', 'host:1:aaaaaaaa', NOW_MS);
    await expect(leases.heldElsewhere(key)).resolves.toBeUndefined();
  });

  it('unleased, waiting (INPUT_REQUIRED) or unknown tasks are run by nobody', async () => {
    leased('TASK_STATE_WORKING', null, null);
    await expect(leases.heldElsewhere(key)).resolves.toBeUndefined();
    leased('TASK_STATE_INPUT_REQUIRED', 'host:2:bbbbbbbb', NOW_MS);
    await expect(leases.heldElsewhere(key)).resolves.toBeUndefined();
    row = undefined;
    await expect(leases.heldElsewhere(key)).resolves.toBeUndefined();
  });
});
