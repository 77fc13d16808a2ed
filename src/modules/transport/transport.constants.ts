/** The protocol core's token, re-exported for the controllers (it lives in a2a-core/). */
export { A2A_REQUEST_HANDLER } from '../a2a-core/a2a-core.constants';

/** Injection tokens of the transport layer's SDK objects. */
export const JSON_RPC_HANDLER = Symbol('JSON_RPC_HANDLER');
export const LEGACY_JSON_RPC_HANDLER = Symbol('LEGACY_JSON_RPC_HANDLER');

/** Media types a request body may use (A2A §11.1 says application/json; §14.1 registers a2a+json). */
export const JSON_MEDIA_TYPE = 'application/json';
export const A2A_MEDIA_TYPE = 'application/a2a+json';

/** The lowercased media type of a Content-Type header, without parameters; undefined if absent. */
export function mediaTypeOf(contentType: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(contentType) ? contentType[0] : contentType;
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw.split(';', 1)[0].trim().toLowerCase();
}
