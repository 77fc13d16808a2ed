/**
 * A database URL safe to log, show or put in an error: `postgres://user@host:port/db` with the
 * password removed and the query (which may carry `password=` or `sslkey=`) dropped.
 * @returns `postgres://(unparsable URL)` when the text is not a URL (never echoes it).
 * @see RFC 3986 §3.2.1 (user information; passwords in URLs are deprecated).
 */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${parsed.username}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** Where a store lives, for logs: the redacted database URL, the SQLite file, or `:memory:`. */
export function describeStore(databaseUrl: string | null, path: string | null): string {
  return databaseUrl ? redactDatabaseUrl(databaseUrl) : (path ?? ':memory:');
}
