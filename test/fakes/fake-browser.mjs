// A fake browser for the CLI's OAuth e2e tests, started through the BROWSER variable:
// `BROWSER="node test/fakes/fake-browser.mjs"` → `node fake-browser.mjs URL`. Follows redirects by
// hand (cookies kept per origin) until a page without a Location, then appends
// `{"url": first URL, "status": last status, "page": last body}` as one JSON line to $FAKE_BROWSER_LOG.
import { appendFileSync } from 'node:fs';

const start = process.argv[2];
const jar = new Map();
let url = start;
let last = { status: 0, page: '' };
for (let hop = 0; hop < 10; hop++) {
  const origin = new URL(url).origin;
  const res = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: (jar.get(origin) ?? []).join('; ') },
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const kept = (jar.get(origin) ?? []).filter(
    (c) => !cookies.some((n) => n.split('=')[0] === c.split('=')[0]),
  );
  jar.set(origin, [...kept, ...cookies]);
  const location = res.headers.get('location');
  last = { status: res.status, page: await res.text() };
  if (!location) break;
  url = new URL(location, url).href;
}
if (process.env.FAKE_BROWSER_LOG)
  appendFileSync(process.env.FAKE_BROWSER_LOG, `${JSON.stringify({ url: start, ...last })}\n`);
