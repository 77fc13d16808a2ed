import { restStatusFor, toJsonRpcError, toRestErrorBody } from '@a2a-js/sdk/errors';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { renderJsonRpcError, renderRestError } from './a2a-error-render';
import { ERROR_MAP, toA2aError } from './error-map';
import type { ErrorMapping } from './error-map';

/** Markers around the generated table in README.md ("Errors by class"). */
export const ERRORS_TABLE_BEGIN = '<!-- errors-table:begin (generated: npm run docs:errors) -->';
export const ERRORS_TABLE_END = '<!-- errors-table:end -->';

/** How one mapping renders on each binding (what the real renderers answer). */
export interface BindingShapes {
  readonly jsonRpc: { readonly status: number; readonly code: number };
  readonly legacyJsonRpc: { readonly code: number };
  /** HTTP status, `google.rpc.Status` code name and `ErrorInfo.reason` (none when internal). */
  readonly rest: { readonly status: number; readonly rpcStatus: string; readonly reason?: string };
  readonly cliExit: number;
}

/**
 * Renders the mapping's sample with the bindings' renderers. An error mapped to no A2A error is
 * the generic internal error, rendered by the SDK mappers the renderers use (without the
 * renderers' "unexpected failure" log).
 */
export function bindingShapes(mapping: ErrorMapping): BindingShapes {
  const sample = mapping.sample();
  const a2a = toA2aError(sample);
  if (!a2a) {
    const generic = new Error('Internal error.');
    const status = restStatusFor(generic);
    return {
      jsonRpc: { status: 500, code: toJsonRpcError(generic).code },
      legacyJsonRpc: {
        code: (LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(generic) as { code: number })
          .code,
      },
      rest: { status, rpcStatus: toRestErrorBody(generic, status).error.status },
      cliExit: mapping.cliExit,
    };
  }
  const v1 = renderJsonRpcError(a2a, false);
  const rest = renderRestError(a2a) as { status: number; body: { error: { status: string } } };
  return {
    jsonRpc: { status: v1.status, code: v1.body.code },
    legacyJsonRpc: { code: renderJsonRpcError(a2a, true).body.code },
    rest: { status: rest.status, rpcStatus: rest.body.error.status, reason: a2a.reason },
    cliExit: mapping.cliExit,
  };
}

/** The README's "Errors by class" table, one row per {@link ERROR_MAP} entry, markers included. */
export function errorsTable(): string {
  const rows = ERROR_MAP.map((m) => {
    const s = bindingShapes(m);
    return (
      `| \`${m.name}\` | ${m.situation} | HTTP ${s.jsonRpc.status}, ${s.jsonRpc.code} | ` +
      `${s.legacyJsonRpc.code} | ${s.rest.status} \`${s.rest.rpcStatus}\`` +
      `${s.rest.reason ? ` (\`${s.rest.reason}\`)` : ''} | ${s.cliExit} |`
    );
  });
  return [
    ERRORS_TABLE_BEGIN,
    '| error | when | JSON-RPC 1.0 | JSON-RPC 0.3 | HTTP+JSON | CLI exit |',
    '|---|---|---|---|---|---|',
    ...rows,
    ERRORS_TABLE_END,
  ].join('\n');
}

/**
 * `readme` with its generated table replaced by {@link errorsTable}.
 * @throws {Error} When the markers are missing.
 */
export function withErrorsTable(readme: string): string {
  const begin = readme.indexOf(ERRORS_TABLE_BEGIN);
  const end = readme.indexOf(ERRORS_TABLE_END);
  if (begin < 0 || end < begin) throw new Error('README.md lacks the errors-table markers');
  return readme.slice(0, begin) + errorsTable() + readme.slice(end + ERRORS_TABLE_END.length);
}
