import { redactDatabaseUrl } from './database-url';
import { toNumberedPlaceholders } from './sql-dialect';

describe(toNumberedPlaceholders.name, () => {
  it('numbers ? placeholders in order and leaves ? inside quoted literals and identifiers alone', () => {
    expect(
      toNumberedPlaceholders(
        `SELECT "a?" FROM t WHERE x = ? AND y LIKE ? ESCAPE '\\' AND z = '?' AND w IN (?, ?)`,
      ),
    ).toBe(
      `SELECT "a?" FROM t WHERE x = $1 AND y LIKE $2 ESCAPE '\\' AND z = '?' AND w IN ($3, $4)`,
    );
  });
});

describe(redactDatabaseUrl.name, () => {
  it.each([
    [
      'postgres://app:s3cr%40t@db.internal:5432/a2a?sslmode=require&password=x',
      'postgres://app@db.internal:5432/a2a',
    ],
    ['postgresql://db/a2a', 'postgresql://db/a2a'],
    ['not a url s3cret', 'postgres://(unparsable URL)'],
  ])('%s → %s (no password, no query)', (url, shown) => {
    expect(redactDatabaseUrl(url)).toBe(shown);
  });
});
