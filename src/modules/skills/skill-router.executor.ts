import { Injectable, Logger } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { Clock, IdGenerator } from '../../common/runtime/clock';
import { A2aSkill } from './a2a-skill';
import { SkillRouter } from './skill-router.service';
import { SKILL_METADATA_KEY } from './skills.constants';
import { agentMessage, statusUpdate, textPart } from './message-parts';

/**
 * The SDK `AgentExecutor`: publishes the Task, routes the turn to one {@link A2aSkill}
 * and turns any unexpected skill failure into a TASK_STATE_FAILED update with a generic
 * message (details go to the log only), so no task is left in WORKING.
 * @see A2A specification §3.1.1 SendMessage, §3.1.5 CancelTask; SDK `AgentExecutor`.
 */
@Injectable()
export class SkillRouterExecutor implements AgentExecutor {
  private readonly logger = new Logger(SkillRouterExecutor.name);
  /** taskId → skill currently running it (bounded by in-flight tasks). */
  private readonly running = new Map<string, { skill: A2aSkill; contextId: string }>();

  constructor(
    private readonly router: SkillRouter,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** Runs one turn; never rejects (failures become a FAILED status update). */
  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = context;
    const watched = publishWatch(bus);
    let skill: A2aSkill;
    try {
      // The request handler's checks routed this message already; route() returns that choice.
      skill = await this.router.route(
        context.request,
        context.userMessage,
        context.context,
        context.task,
      );
      // The request handler refuses such a caller before the task exists; never run it here.
      const refusal = skill.accessRefusal(context.context);
      if (refusal) throw refusal;
    } catch (err) {
      bus.publish(AgentEvent.task(context.task ?? this.newTask(context)));
      this.fail(bus, taskId, contextId, err instanceof Error ? err.message : 'No skill matched.');
      return;
    }
    // The owner skill is recorded on the task: follow-ups on it route back here (skill-router).
    const task = context.task ?? this.newTask(context, skill.id);
    this.running.set(taskId, { skill, contextId });
    try {
      await skill.execute(context, watched.bus, task);
    } catch (err) {
      this.logger.error(`Skill ${skill.id} failed on task ${taskId}`, (err as Error)?.stack);
      if (!watched.published()) bus.publish(AgentEvent.task(task));
      this.fail(
        bus,
        taskId,
        contextId,
        'The skill failed unexpectedly; the task was not completed.',
      );
    } finally {
      // No bus.finished(): the SDK settles the bus when execute() resolves, and keeps it open for
      // INPUT_REQUIRED so follow-up turns and subscribers share it.
      this.running.delete(taskId);
    }
  };

  /** Cancels a running turn; publishes TASK_STATE_CANCELED when the skill does not. */
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const run = this.running.get(taskId);
    if (run && (await run.skill.cancel(taskId, bus))) return;
    if (!run) for (const skill of this.router.served()) await skill.cancelPaused(taskId);
    const update = statusUpdate({
      taskId,
      contextId: run?.contextId ?? '',
      state: TaskState.TASK_STATE_CANCELED,
      timestamp: this.clock.isoNow(),
    });
    bus.publish(AgentEvent.statusUpdate(update));
    if (!run) bus.finished();
  };

  private newTask(context: RequestContext, skillId?: string): Task {
    return {
      id: context.taskId,
      contextId: context.contextId,
      status: {
        state: TaskState.TASK_STATE_SUBMITTED,
        message: undefined,
        timestamp: this.clock.isoNow(),
      },
      artifacts: [],
      history: [context.userMessage],
      metadata: skillId ? { [SKILL_METADATA_KEY]: skillId } : {},
    };
  }

  private fail(bus: ExecutionEventBus, taskId: string, contextId: string, text: string): void {
    const message = agentMessage({
      messageId: this.ids.next(),
      contextId,
      taskId,
      parts: [textPart(text)],
    });
    bus.publish(
      AgentEvent.statusUpdate(
        statusUpdate({
          taskId,
          contextId,
          state: TaskState.TASK_STATE_FAILED,
          timestamp: this.clock.isoNow(),
          message,
        }),
      ),
    );
  }
}

/** Wraps a bus to know whether anything was published through it (the Task must come first). */
function publishWatch(bus: ExecutionEventBus): {
  bus: ExecutionEventBus;
  published: () => boolean;
} {
  let published = false;
  // A plain delegate, not Object.create(bus): making the bus a prototype turns its hidden class
  // into a prototype map, which costs on every later call on the bus (issue #14 profile).
  type Listen = (name: string, listener: unknown) => unknown;
  const loose = bus as unknown as Record<'on' | 'off' | 'once', Listen>;
  const delegate = (m: 'on' | 'off' | 'once') =>
    ((name: string, listener: unknown) => {
      loose[m].call(bus, name, listener);
      return watched;
    }) as ExecutionEventBus['on'];
  const watched: ExecutionEventBus = {
    publish: (event) => {
      published = true;
      bus.publish(event);
    },
    finished: () => bus.finished(),
    on: delegate('on'),
    off: delegate('off'),
    once: delegate('once'),
    removeAllListeners: (name) => {
      bus.removeAllListeners(name);
      return watched;
    },
  };
  return { bus: watched, published: () => published };
}
