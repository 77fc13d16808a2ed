import type { Artifact, StreamResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';

/** States after which a task never changes again (A2A specification §4.1.3 TaskState). */
export const FINAL_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];

/** The task reached a state it never leaves. */
export function isFinal(task: Task | undefined): boolean {
  return task?.status?.state !== undefined && FINAL_STATES.includes(task.status.state);
}

/**
 * The stream events that take a subscriber from `before` to `after` (two stored snapshots of one
 * task, `after` the later): each new or changed artifact whole (`append: false`, replacing what
 * the subscriber had under that artifact id), then the status when it changed, so the final status
 * comes last. Nothing when nothing changed, so a repeated or late notification yields no event.
 * @see A2A specification §4.2.1 TaskStatusUpdateEvent, §4.2.2 TaskArtifactUpdateEvent.
 */
export function eventsBetween(before: Task, after: Task): StreamResponse[] {
  const events: StreamResponse[] = [];
  const had = new Map<string, string>(
    (before.artifacts ?? []).map((a: Artifact) => [a.artifactId, JSON.stringify(a)]),
  );
  for (const artifact of after.artifacts ?? []) {
    if (had.get(artifact.artifactId) === JSON.stringify(artifact)) continue;
    events.push({
      payload: {
        $case: 'artifactUpdate',
        value: {
          taskId: after.id,
          contextId: after.contextId,
          artifact,
          append: false,
          lastChunk: isFinal(after),
          metadata: {},
        },
      },
    });
  }
  if (JSON.stringify(before.status) !== JSON.stringify(after.status)) {
    events.push({
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: after.id,
          contextId: after.contextId,
          status: after.status,
          metadata: {},
        },
      },
    });
  }
  return events;
}
