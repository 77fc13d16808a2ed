import type { TuiInput, KeyPress } from './tui-input';
import { layout, type Line } from './tui-layout';
import type { TuiSession } from './tui-session';
import { importEsm } from './esm-import';
import { processEnv } from '../../config/process-env';

type React = typeof import('react');
/** ink's types; node10 resolution cannot read ink's `exports`, so the file is named. */
type Ink = typeof import('ink/build/index');

/**
 * Draws the screen with ink (loaded by native `import()`: ink and React 19 are ESM) and feeds
 * its key presses to `input`. Resolves when the screen is closed (`quit`).
 * `NO_COLOR` (any value) drops every colour; layout and focus marks do not depend on colour.
 */
export async function renderScreen(
  session: TuiSession,
  input: TuiInput,
): Promise<{ rerender: () => void; closed: Promise<void>; unmount: () => void }> {
  const React = (await importEsm<{ default: React }>('react')).default;
  const ink = await importEsm<Ink>('ink');
  const h = React.createElement;
  const noColor = (processEnv().NO_COLOR ?? '') !== ''; // no-color.org: any non-empty value
  let bump: () => void = () => undefined;

  const row = (line: Line, i: number) =>
    h(
      ink.Text,
      { key: i, wrap: 'truncate' },
      ...line.map((seg, j) =>
        h(ink.Text, { key: j, bold: seg.bold, color: noColor ? undefined : seg.color }, seg.text),
      ),
    );

  function App() {
    const [, setN] = React.useState(0);
    const { stdout } = ink.useStdout();
    React.useEffect(() => {
      bump = () => setN((n) => n + 1);
      const onResize = () => bump();
      stdout.on('resize', onResize);
      return () => void stdout.off('resize', onResize);
    }, [stdout]);
    ink.useInput((text: string, key: KeyPress) => input.key(text, key));
    const width = Math.max(40, stdout.columns || 80);
    const height = Math.max(12, stdout.rows || 24);
    return h(
      ink.Box,
      { flexDirection: 'column', width, height },
      ...layout(session.state, width, height - 1).map(row),
    );
  }

  const instance = ink.render(h(App), { exitOnCtrlC: false, patchConsole: true });
  return {
    rerender: () => bump(),
    closed: instance.waitUntilExit().then(() => undefined),
    unmount: () => instance.unmount(),
  };
}
