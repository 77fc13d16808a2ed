import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/** Wall clock seam (tests may override it with a fixed clock). */
@Injectable()
export class Clock {
  /** Current time as a Date. */
  now(): Date {
    return new Date();
  }
  /** Current time as an ISO 8601 UTC string (A2A `timestamp` fields). */
  isoNow(): string {
    return this.now().toISOString();
  }
}

/** Id seam: RFC 9562 v4 UUIDs for task, message and artifact ids. */
@Injectable()
export class IdGenerator {
  /** A new random UUID string. */
  next(): string {
    return randomUUID();
  }
}
