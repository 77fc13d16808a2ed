import type { Clock, IdGenerator } from '../../../common/runtime/clock';
import type { HarnessLedgerService } from '../ledger/harness-ledger.service';
import type {
  HarnessEvent,
  HarnessEventDataMap,
  HarnessEventOf,
  HarnessEventType,
} from '../protocol/harness-events';
import type { EventChannel } from './event-channel';
import type { SecretScrubber } from './secret-scrubber';

/** Where a recorder writes and publishes, and the ids it stamps on events. */
export interface RunRecorderTarget {
  ledger: HarnessLedgerService;
  channel: EventChannel<HarnessEvent>;
  clock: Clock;
  ids: IdGenerator;
  /** Applied to every event's data before it is recorded or published. */
  scrubber: SecretScrubber;
}

/**
 * Stamps, records and publishes the events of one run segment, in order: each event is written
 * to the ledger (which allocates its sequence number) and only then pushed to the consumer.
 * Calls are serialised, so concurrent `emit`s keep their call order. Every string in the data
 * is scrubbed of secret values first: the recorded event is what the consumer, the ledger and
 * (for tool results) the model get.
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

  /** The scrubber applied to recorded data (streams use it through `DeltaScrubber`). */
  get scrubber(): SecretScrubber {
    return this.target.scrubber;
  }

  /**
   * Records and publishes one event.
   * @returns The event as recorded (secret values replaced).
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
      data: this.target.scrubber.scrubDeep(data),
    };
    const recorded = (await this.target.ledger.append(event as HarnessEvent)) as HarnessEventOf<K>;
    this.lastSequence = recorded.sequence;
    this.target.channel.push(recorded as HarnessEvent);
    return recorded;
  }
}
