/**
 * The deepest nesting of objects and arrays in a JSON text, found by one iterative scan (no
 * recursion, so no input can overflow the stack): `{}` and `[]` are depth 1, `{"a":[1]}` depth 2,
 * scalars depth 0. Brackets inside strings (escapes included) do not count. The text is not
 * validated: malformed JSON is `JSON.parse`'s to refuse.
 * @param text - A request body as received.
 * @param stopAt - Scanning ends as soon as this depth is passed (the result is then `stopAt + 1`).
 */
export function jsonDepth(text: string, stopAt = Number.MAX_SAFE_INTEGER): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAt) return deepest;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/** The message a body deeper than `maxDepth` is refused with (names the limit and its setting). */
export function tooDeepMessage(maxDepth: number): string {
  return `The request body nests objects/arrays deeper than ${maxDepth} levels (SUPERQODE_A2A_MAX_JSON_DEPTH).`;
}
