import * as sdkErrors from '@a2a-js/sdk/errors';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CLI_EXIT } from '../../cli/exit-codes';
import { ConfigValidationError } from '../../config/config-errors';
import { InvalidFlagError } from '../../modules/auth/commands/invalid-flag.error';
import {
  HarnessProviderError,
  HarnessSessionNotFoundError,
} from '../../modules/harness/protocol/harness-protocol.errors';
import { renderJsonRpcError, renderRestError } from './a2a-error-render';
import { cliExitCodeFor, ERROR_MAP, mappingFor } from './error-map';
import { bindingShapes, withErrorsTable } from './errors-table';

const SRC = join(__dirname, '../..');
/** The A2A client's errors are its own (exit codes of `superqode a2a …`, issue #17). */
const NOT_SERVER_ERRORS = [join(SRC, 'modules/client')];
/** Module-private control flow: thrown and caught inside one function, never exported. */
const PRIVATE_CONTROL_FLOW = new Set(['modules/harness/tools/bash-command-line.ts: Uncheckable']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return NOT_SERVER_ERRORS.includes(path) ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** `class X extends …Error` declared under src/, as `file: X`. */
function declaredErrorClasses(): string[] {
  return sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)\s+extends\s+(\w*Error)\b/g)].map(
      (m) => `${relative(SRC, file)}: ${m[1]}`,
    ),
  );
}

describe('error map (issue #13)', () => {
  it('maps every error class declared under src/ (a new one fails here until mapped)', () => {
    const mapped = new Set(ERROR_MAP.map((m) => m.name));
    const missing = declaredErrorClasses().filter(
      (c) => !mapped.has(c.split(': ')[1]) && !PRIVATE_CONTROL_FLOW.has(c),
    );
    expect(missing).toEqual([]);
  });

  it('maps every A2A error class the SDK exports', () => {
    const sdkClasses = Object.keys(sdkErrors).filter(
      (k) => /^[A-Z]\w*Error$/.test(k) && !/^(Json|Rest|A2AError$)/.test(k),
    );
    expect(sdkClasses.length).toBeGreaterThanOrEqual(10);
    const mapped = new Set(ERROR_MAP.map((m) => m.name));
    expect(sdkClasses.filter((k) => !mapped.has(k))).toEqual([]);
  });

  it('each entry names its class, and its sample is matched by its own entry', () => {
    for (const m of ERROR_MAP) {
      expect(m.type.name).toBe(m.name);
      expect(mappingFor(m.sample())).toBe(m);
    }
  });

  it('renders a harness error as its A2A error on both bindings, not as an internal error', () => {
    const err = new HarnessSessionNotFoundError('s-9');
    expect(renderJsonRpcError(err, false)).toMatchObject({
      status: 200,
      body: { code: -32001, message: 'harness session s-9 not found' },
    });
    expect(renderRestError(err).status).toBe(404);
  });

  it('keeps an unmapped failure generic: no message leaks', () => {
    const err = new HarnessProviderError('provider https://user:pw@example.com refused');
    expect(bindingShapes(mappingFor(err)!).jsonRpc).toEqual({ status: 500, code: -32603 });
    const rendered = renderJsonRpcError(err, false);
    expect(rendered.status).toBe(500);
    expect(JSON.stringify(rendered.body)).not.toContain('pw@');
  });

  it('gives the CLI exit code: usage errors 2, failures 1', () => {
    expect(cliExitCodeFor(new InvalidFlagError('--days'))).toBe(CLI_EXIT.usage);
    expect(cliExitCodeFor(new ConfigValidationError([]))).toBe(CLI_EXIT.failed);
    expect(cliExitCodeFor(new Error('anything'))).toBe(CLI_EXIT.failed);
  });

  it("README's errors table is the one generated from the map (npm run docs:errors)", () => {
    const readme = readFileSync(join(SRC, '../README.md'), 'utf8');
    expect(withErrorsTable(readme)).toBe(readme);
  });
});
