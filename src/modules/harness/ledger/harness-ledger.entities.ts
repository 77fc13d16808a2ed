import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Rows of the harness ledger (its own SQLite file). Created by migration
 * `CreateHarnessLedger1760000000000`, never by `synchronize`; JSON columns hold text.
 */

/** One session (table `sessions`). */
@Entity('sessions')
export class HarnessSessionEntity {
  /** Random UUID. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** ISO 8601 UTC. */
  @Column({ name: 'created_at', type: 'text' })
  createdAt: string;

  /** `spec.name`. */
  @Column({ name: 'spec_name', type: 'text' })
  specName: string;

  /** Absolute working directory. */
  @Column({ name: 'working_dir', type: 'text' })
  workingDir: string;

  /** The validated HarnessSpec as JSON: later runs and resumes use the spec of their session. */
  @Column({ type: 'text' })
  spec: string;

  /** Default model choice (`HarnessModelSelection` JSON) for the session's runs. */
  @Column({ name: 'model_selection', type: 'text' })
  modelSelection: string;

  /** Caller metadata, JSON object. */
  @Column({ type: 'text' })
  metadata: string;
}

/** One run (table `runs`). */
@Entity('runs')
@Index('IDX_runs_session_started', ['sessionId', 'startedAt'])
@Index('IDX_runs_started', ['startedAt'])
export class HarnessRunEntity {
  /** Random UUID. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'session_id', type: 'text' })
  sessionId: string;

  /** running | succeeded | needs_approval | failed | cancelled. */
  @Column({ type: 'text' })
  status: string;

  @Column({ type: 'text', nullable: true })
  provider: string | null;

  @Column({ type: 'text', nullable: true })
  model: string | null;

  /** ISO 8601 UTC. */
  @Column({ name: 'started_at', type: 'text' })
  startedAt: string;

  /** ISO 8601 UTC; null while running. */
  @Column({ name: 'ended_at', type: 'text', nullable: true })
  endedAt: string | null;

  /** First 240 characters of the prompt. */
  @Column({ name: 'prompt_preview', type: 'text' })
  promptPreview: string;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** Process instance executing the run (`ProcessInstance.id`); null before migration 1765. */
  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  /** Owner's last heartbeat, epoch ms; the run is orphaned once older than the lease. */
  @Column({ name: 'lease_renewed_at_ms', type: 'integer', nullable: true })
  leaseRenewedAtMs: number | null;
}

/** One event of a run (table `events`, primary key (run_id, sequence)). */
@Entity('events')
export class HarnessEventEntity {
  @PrimaryColumn({ name: 'run_id', type: 'text' })
  runId: string;

  /** 1-based per run. */
  @PrimaryColumn({ type: 'integer' })
  sequence: number;

  /** Random UUID of the event. */
  @Column({ name: 'event_id', type: 'text' })
  eventId: string;

  /** A `HarnessEventType`. */
  @Column({ type: 'text' })
  type: string;

  /** Event `data` as JSON. */
  @Column({ type: 'text' })
  data: string;

  /** ISO 8601 UTC. */
  @Column({ type: 'text' })
  timestamp: string;
}

/** Every entity of the harness data source. */
export const HARNESS_ENTITIES = [HarnessSessionEntity, HarnessRunEntity, HarnessEventEntity];
