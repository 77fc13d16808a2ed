import type { Part, Task } from '@a2a-js/sdk';

/**
 * Joins each artifact's consecutive plain text parts (same media type, no filename, no metadata)
 * into one, in place. A streamed answer arrives as one `append` artifact chunk per model delta, so
 * without this a 2,000-token answer is stored (and listed by every client) as 2,000 parts;
 * `LiveTask` joins each appended chunk with {@link joinedParts}. Streaming clients still get
 * every chunk.
 * @returns The same task.
 * @see A2A specification §4.1.7 Artifact, §4.2.2 TaskArtifactUpdateEvent (`append`).
 */
export function joinTextParts(task: Task): Task {
  for (const artifact of task.artifacts ?? []) {
    if (artifact.parts && artifact.parts.length > 1) artifact.parts = joinedParts(artifact.parts);
  }
  return task;
}

/**
 * Consecutive plain text parts (same media type, no filename, no metadata) joined into one, as a
 * new array; the given parts are not changed.
 */
export function joinedParts(parts: Part[]): Part[] {
  const joined: Part[] = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if (last && joinable(last, part) && joinable(part, last)) {
      const text =
        (last.content as { value: string }).value + (part.content as { value: string }).value;
      joined[joined.length - 1] = { ...last, content: { $case: 'text', value: text } };
    } else {
      joined.push(part);
    }
  }
  return joined;
}

function joinable(part: Part, other: Part): boolean {
  const plain = !part.filename && (!part.metadata || Object.keys(part.metadata).length === 0);
  return (
    part.content?.$case === 'text' && plain && (part.mediaType || '') === (other.mediaType || '')
  );
}
