import type { Message } from '@a2a-js/sdk';
import { approvalQuestion, decisionOf } from './approval-prompt';

const reply = (text: string) =>
  ({ parts: [{ content: { $case: 'text', value: text } }] }) as unknown as Message;
const call = (tool_name: string, target: string, input: unknown) => ({
  tool_call_id: 'c',
  tool_name,
  target,
  input,
});

describe(decisionOf.name, () => {
  it.each(['approve', 'yes', 'y', ' YES ', 'Approve'])('"%s" approves', (t) =>
    expect(decisionOf(reply(t))).toBe('approve'),
  );
  it.each(['deny', 'no', 'n', 'No'])('"%s" denies', (t) =>
    expect(decisionOf(reply(t))).toBe('deny'),
  );
  it.each(['yes please', 'yes, which file?', 'approved', 'nope', 'y.', ''])(
    '"%s" is not a decision',
    (t) => expect(decisionOf(reply(t))).toBeUndefined(),
  );
  it('reads a data part {"decision": …}', () => {
    expect(
      decisionOf({
        parts: [{ content: { $case: 'data', value: { decision: 'deny' } } }],
      } as unknown as Message),
    ).toBe('deny');
  });
});

describe(approvalQuestion.name, () => {
  it('names the write and its size in bytes, with the content fenced', () => {
    const q = approvalQuestion(
      call('write_file', 'hello.txt', { path: 'hello.txt', content: 'héllo\n' }),
    );
    expect(q).toMatch(
      /^Approval needed: write_file wants to write hello\.txt \(7 bytes\)\.\n```\nhéllo\n```\n/,
    );
  });

  it('shows an edit as a -/+ diff', () => {
    const q = approvalQuestion(
      call('edit_file', 'a.ts', { path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' }),
    );
    expect(q).toContain('edit_file wants to edit a.ts.\n```diff\n-a = 1\n+a = 2\n```');
  });

  it('bounds the preview in bytes, saying so', () => {
    const q = approvalQuestion(call('write_file', 'big.txt', { content: 'x'.repeat(10_000) }));
    expect(q).toContain('(preview: everything after 2000 bytes not shown)');
    expect(q.length).toBeLessThan(2_600);
  });

  it('names the command of a bash call', () => {
    expect(approvalQuestion(call('bash', 'rm -rf build', { command: 'rm -rf build' }))).toMatch(
      /^Approval needed: bash wants to run `rm -rf build`\./,
    );
  });
});
