import { ReplyCoalescer, turnEnded } from './reply-stream';
import { coldStartMs, waitStatus } from './wait-status';

const artifact = (text: string, append: boolean) => ({
  kind: 'artifact-update',
  taskId: 't1',
  contextId: 'c1',
  append,
  artifact: { artifactId: 'answer', parts: [{ kind: 'text', text }] },
});
const status = (state: string, text?: string) => ({
  kind: 'status-update',
  taskId: 't1',
  contextId: 'c1',
  status: { state, message: text ? { parts: [{ kind: 'text', text }] } : undefined },
});

describe('ReplyCoalescer (streamed chunks → one growing text)', () => {
  it('joins appended artifact chunks into one text, not one line per chunk', () => {
    const c = new ReplyCoalescer();
    for (const [i, chunk] of ['Done: ', 'create', 'd hell', 'o.txt'].entries())
      c.add(artifact(chunk, i > 0));
    expect(c.add(status('completed')).text).toBe('Done: created hello.txt');
    expect(c.progress).toMatchObject({ taskId: 't1', contextId: 'c1', state: 'completed' });
  });

  it('a chunk without append replaces its artifact', () => {
    const c = new ReplyCoalescer();
    c.add(artifact('draft', false));
    expect(c.add(artifact('final', false)).text).toBe('final');
  });

  it('working status messages are activity; the input-required question is part of the text', () => {
    const c = new ReplyCoalescer();
    expect(c.add(status('working', 'running npm test')).activity).toBe('running npm test');
    const p = c.add(status('input-required', 'Reply approve or deny'));
    expect(p.text).toBe('Reply approve or deny');
    expect(turnEnded(p.state)).toBe(true);
  });

  it('reads SDK StreamResponse objects ($case payloads) too', () => {
    const c = new ReplyCoalescer();
    c.add({
      payload: { $case: 'artifactUpdate', value: { ...artifact('a', false), kind: undefined } },
    });
    const p = c.add({
      payload: { $case: 'artifactUpdate', value: { ...artifact('b', true), kind: undefined } },
    });
    expect(p.text).toBe('ab');
    expect(turnEnded('working')).toBe(false);
  });
});

describe('waitStatus (cold start)', () => {
  it('says cold-starting only after 8 s with no answer at all', () => {
    expect(waitStatus({ since: 0, lastEventAt: 0 }, 7999)).toBeUndefined();
    expect(waitStatus({ since: 0, lastEventAt: 0 }, 8000)).toMatch(
      /8 s: the host may be cold-starting/,
    );
    expect(waitStatus({ since: 0, lastEventAt: 1000 }, 9500)).toMatch(/^Still waiting: 9 s since/);
  });

  it('takes its threshold from SUPERQODE_A2A_TUI_COLD_START_MS (a positive integer, else 8000)', () => {
    const saved = process.env.SUPERQODE_A2A_TUI_COLD_START_MS;
    try {
      process.env.SUPERQODE_A2A_TUI_COLD_START_MS = '1200';
      expect(coldStartMs()).toBe(1200);
      expect(waitStatus({ since: 0, lastEventAt: 0 }, 1200, coldStartMs())).toMatch(
        /1 s: the host may be cold-starting/,
      );
      for (const bad of ['0', '-5', '1.5', 'soon', '']) {
        process.env.SUPERQODE_A2A_TUI_COLD_START_MS = bad;
        expect(coldStartMs()).toBe(8000);
      }
    } finally {
      if (saved === undefined) delete process.env.SUPERQODE_A2A_TUI_COLD_START_MS;
      else process.env.SUPERQODE_A2A_TUI_COLD_START_MS = saved;
    }
  });
});
