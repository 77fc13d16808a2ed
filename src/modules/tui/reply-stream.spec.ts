import { ReplyCoalescer, turnEnded } from './reply-stream';
import { waitStatus } from './wait-status';

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
});
