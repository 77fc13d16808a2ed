import { layout, maskHeaders, wrap } from './tui-layout';
import { focusOrder, initialState, parseHeaderField, type TuiState } from './tui-state';

function connected(): TuiState {
  const s = initialState();
  s.screen = 'a2a';
  s.fields.origin = 'http://127.0.0.1:8000';
  s.agent = {
    name: 'SuperQode',
    version: '1.0',
    cardUrl: 'http://127.0.0.1:8000/.well-known/agent-card.json',
    interfaceLine: 'JSONRPC 1.0 at http://127.0.0.1:8000/a2a/jsonrpc',
    reason: 'first supported interface',
    skills: ['Harness'],
    examples: ['one', 'two', 'three', 'four', 'five', 'six'],
    catalogue: false,
    streaming: true,
    auth: 'no credential sent',
  };
  return s;
}

const text = (s: TuiState, w = 80, h = 24): string[] =>
  layout(s, w, h).map((l) => l.map((seg) => seg.text).join(''));

describe('TUI layout', () => {
  it('fits 80×24 with six Try lines and a long conversation, newest lines last', () => {
    const s = connected();
    for (let i = 0; i < 30; i++) s.transcript.push({ who: 'agent', text: `line ${i}` });
    const rows = text(s);
    expect(rows.length).toBeLessThanOrEqual(24);
    expect(rows.join('\n')).toContain('agent: line 29');
    expect(rows.join('\n')).not.toContain('agent: line 0\n');
  });

  it('masks the credential and marks focus without colour', () => {
    const s = connected();
    s.fields.credential = 'secret-token';
    s.focus = 'credential';
    const joined = text(s).join('\n');
    expect(joined).not.toContain('secret-token');
    expect(joined).toContain('>Credential [••••••••••••_');
  });

  it('Headers and mTLS fields join the focus order when their chips are on', () => {
    const s = connected();
    expect(focusOrder(s)).not.toContain('headers');
    s.chips.headers = s.chips.mtls = true;
    expect(focusOrder(s)).toEqual(
      expect.arrayContaining(['headers', 'tls-cert', 'tls-key', 'tls-ca']),
    );
  });

  it('shows credential-like header values as dots', () => {
    expect(maskHeaders('X-Api-Key: k1; X-Team: blue')).toBe('X-Api-Key: ••; X-Team: blue');
  });

  it('wraps at the width and parses the Headers field', () => {
    expect(wrap('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(parseHeaderField('X-Api-Key: k1; X-Team: a:b; junk')).toEqual([
      ['X-Api-Key', 'k1'],
      ['X-Team', 'a:b'],
    ]);
  });
});
