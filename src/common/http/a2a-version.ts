import type { FastifyRequest } from 'fastify';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';

/**
 * The A2A protocol version a request asks for: the `A2A-Version` header, else the
 * `A2A-Version` query parameter, normalised to `major.minor` (`1.0.3` → `1.0`, A2A §3.6.2:
 * patch versions are compatible). Undefined when absent, which A2A reads as 0.3.
 * Values that are not `N.N` or `N.N.N` come back trimmed but otherwise unchanged, so the
 * SDK's `validateVersion` refuses them with VersionNotSupportedError.
 */
export function requestedA2aVersion(request: FastifyRequest): string | undefined {
  const header = request.headers[A2A_VERSION_HEADER.toLowerCase()];
  const query = (request.query as Record<string, unknown> | undefined)?.[A2A_VERSION_HEADER];
  return a2aVersionOf(firstString(header) ?? firstString(query));
}

/**
 * {@link requestedA2aVersion} from the raw value (header or query parameter), for a request
 * served before Fastify parses it.
 */
export function a2aVersionOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(trimmed);
  return m ? `${Number(m[1])}.${Number(m[2])}` : trimmed;
}

function firstString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}
