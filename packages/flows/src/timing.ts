import { performance } from 'node:perf_hooks';

// Where a step's time goes, phase by phase: for benchmarks (bench/flows.mjs) and debugging.
// Off unless a listener is set in this process; then each recorded step reports the
// milliseconds of its phases (resolve, locator, action, settle, title, proof, effect,
// check, record, ...). Not part of any report.

export interface StepTiming {
  action: string;
  asked: string;
  totalMs: number;
  phases: Record<string, number>;
}

let listener: ((t: StepTiming) => void) | null = null;

/** Listen to step timings (one listener at a time); returns the function that stops it. */
export function onStepTiming(fn: (t: StepTiming) => void): () => void {
  listener = fn;
  return () => {
    if (listener === fn) listener = null;
  };
}

/** Laps of one step; a no-op unless someone listens. */
export class PhaseClock {
  readonly phases: Record<string, number> = {};
  private last: number;
  private readonly start: number;
  readonly on = listener !== null;

  constructor() {
    this.start = this.last = this.on ? performance.now() : 0;
  }

  /** The time since the previous lap goes to this phase. */
  lap(phase: string): void {
    if (!this.on) return;
    const now = performance.now();
    this.phases[phase] = (this.phases[phase] ?? 0) + (now - this.last);
    this.last = now;
  }

  /** Report the step (whatever is left since the last lap counts as "other"). */
  done(action: string, asked: string): void {
    if (!this.on) return;
    this.lap('other');
    try {
      listener?.({ action, asked, totalMs: performance.now() - this.start, phases: this.phases });
    } catch {
      /* a listener's failure is not the run's */
    }
  }
}
