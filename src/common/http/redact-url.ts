const SENSITIVE_PARAM =
  /^(access_token|id_token|refresh_token|token|api[_-]?key|key|secret|password|client_secret|code)$/i;

/**
 * A request URL safe to log: values of credential-like query parameters (`access_token`,
 * `api_key`, `token`, `secret`, …) replaced by `[REDACTED]`; everything else unchanged.
 * @param url - Path and query as received (`/tasks?access_token=…`).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeURIComponentSafe(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && SENSITIVE_PARAM.test(name) ? `${pair.slice(0, eq)}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
