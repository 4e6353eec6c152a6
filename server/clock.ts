/**
 * The one source of time for services. Outside production the clock can be moved forward
 * (tests and the development clock endpoint), so trials, renewals and token expiry are testable.
 */
export interface Clock {
  now(): Date;
}

/** A clock that can be moved forward: outside production only (`POST /api/dev/clock`, tests). */
export interface MovableClock extends Clock {
  advance(seconds: number): void;
}

export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).advance === 'function';
}

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** Real time plus an offset that only grows: moving the clock back would replay expired tokens. */
export class AdjustableClock implements MovableClock {
  private offsetMs = 0;

  constructor(private readonly base: Clock = new SystemClock()) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('seconds must be >= 0');
    this.offsetMs += seconds * 1000;
  }
}

/** A clock that stands still until told to move: for unit tests. */
export class FixedClock implements MovableClock {
  constructor(private current: Date) {}

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(date: Date): void {
    this.current = new Date(date.getTime());
  }

  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}
