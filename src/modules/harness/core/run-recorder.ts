import type { Clock, IdGenerator } from '../../../common/runtime/clock';
import type { HarnessLedgerService } from '../ledger/harness-ledger.service';
import type {
  HarnessEvent,
  HarnessEventDataMap,
  HarnessEventOf,
  HarnessEventType,
} from '../protocol/harness-events';
import type { EventChannel } from './event-channel';

/** Where a recorder writes and publishes, and the ids it stamps on events. */
export interface RunRecorderTarget {
  ledger: HarnessLedgerService;
  channel: EventChannel<HarnessEvent>;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Stamps, records and publishes the events of one run segment, in order: each event is written
 * to the ledger (which allocates its sequence number) and only then pushed to the consumer.
 * Calls are serialised, so concurrent `emit`s keep their call order.
 */
export class RunRecorder {
  private chain: Promise<unknown> = Promise.resolve();

  /**
   * @param sessionId - Session of the run.
   * @param runId - The run.
   * @param lastSequence - Sequence already recorded for the run (0 for a new run).
   */
  constructor(
    private readonly target: RunRecorderTarget,
    readonly sessionId: string,
    readonly runId: string,
    private lastSequence: number,
  ) {}

  /**
   * Records and publishes one event.
   * @returns The event as recorded.
   * @throws {Error} The ledger write failed (the event was not published).
   */
  emit<K extends HarnessEventType>(
    type: K,
    data: HarnessEventDataMap[K],
  ): Promise<HarnessEventOf<K>> {
    const next = this.chain.then(() => this.record(type, data));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async record<K extends HarnessEventType>(
    type: K,
    data: HarnessEventDataMap[K],
  ): Promise<HarnessEventOf<K>> {
    const event: HarnessEventOf<K> = {
      event_id: this.target.ids.next(),
      session_id: this.sessionId,
      run_id: this.runId,
      sequence: this.lastSequence + 1,
      timestamp: this.target.clock.isoNow(),
      type,
      data,
    };
    const recorded = (await this.target.ledger.append(event as HarnessEvent)) as HarnessEventOf<K>;
    this.lastSequence = recorded.sequence;
    this.target.channel.push(recorded as HarnessEvent);
    return recorded;
  }
}
