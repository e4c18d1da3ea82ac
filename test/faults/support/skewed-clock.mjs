/**
 * Preloaded into an oracle or worker process (`NODE_OPTIONS=--import=<this file>`) to run its
 * wall clock `FAULTS_CLOCK_SKEW_MS` off (negative: behind): `Date.now()` and `new Date()` are what
 * the code reads, so this is the clock skew a drifting host would give it. Timers and
 * `performance.now()` are monotonic and stay as they are, as on a real host. Plain JavaScript: it
 * loads before tsx.
 */
const skewMs = Number(process.env.FAULTS_CLOCK_SKEW_MS ?? '0');
if (Number.isFinite(skewMs) && skewMs !== 0) {
  const SystemDate = globalThis.Date;
  class SkewedDate extends SystemDate {
    constructor(...args) {
      if (args.length === 0) super(SystemDate.now() + skewMs);
      else super(...args);
    }

    static now() {
      return SystemDate.now() + skewMs;
    }
  }
  globalThis.Date = SkewedDate;
}
