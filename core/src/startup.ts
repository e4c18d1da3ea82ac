/**
 * Bounded start-up of the embedded components (PostgreSQL, the S3 server, the IPFS blockstore,
 * the local chain, the inference worker). A component that never answers must not hold `npm start` or a test setup
 * forever: every step here either finishes within its bound or fails with a `StartupError` that
 * names the component, the step, its log and the last lines of that log.
 *
 * Test-only switch: `SONGMINT_TEST_STALL=<component>[:<ms>][,...]` makes the named components'
 * main start-up step never finish (its work is not started), so a test can prove that the bound
 * fires and the message is clear; `:<ms>` shortens that step's bound so the test is quick.
 * For operators, `SONGMINT_STARTUP_TIMEOUT_MS` replaces every bound (a slow disk, a slow first
 * compile). Both are read by `startupBounds`.
 */
import { readFile } from 'node:fs/promises';

/** Names used in messages and in `SONGMINT_TEST_STALL`. */
export type StartupComponent = 'postgres' | 's3' | 'ipfs' | 'chain' | 'worker';

const COMPONENT_LABEL: Readonly<Record<StartupComponent, string>> = {
  postgres: 'PostgreSQL (embedded)',
  s3: 'S3 server (s3rver on loopback)',
  ipfs: 'IPFS blockstore',
  chain: 'local Base chain',
  worker: 'inference worker',
};

export interface StartupBounds {
  /** Replaces every step's own bound when set. */
  readonly timeoutMs?: number;
  /** Components whose main step deliberately never finishes (tests of the bounds), with the bound to use for it. */
  readonly stall: ReadonlyMap<StartupComponent, number | undefined>;
}

export class StartupError extends Error {
  readonly component: StartupComponent;
  readonly step: string;
  readonly logPath: string | undefined;
  readonly timedOut: boolean;

  constructor(options: {
    component: StartupComponent;
    step: string;
    reason: string;
    logPath?: string;
    logTail?: string;
    hint?: string;
    timedOut: boolean;
    cause?: unknown;
  }) {
    const lines = [`${COMPONENT_LABEL[options.component]}: ${options.step} ${options.reason}`];
    if (options.logPath !== undefined) lines.push(`  log: ${options.logPath}`);
    if (options.logTail !== undefined && options.logTail.trim() !== '')
      lines.push(
        '  last log lines:',
        ...options.logTail
          .trimEnd()
          .split('\n')
          .map((line) => `    ${line}`),
      );
    if (options.hint !== undefined) lines.push(`  ${options.hint}`);
    super(lines.join('\n'), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StartupError';
    this.component = options.component;
    this.step = options.step;
    this.logPath = options.logPath;
    this.timedOut = options.timedOut;
  }
}

const COMPONENTS: readonly StartupComponent[] = ['postgres', 's3', 'ipfs', 'chain', 'worker'];

/** Reads the two switches from an environment (process.env by default). */
export function startupBounds(env: Readonly<Record<string, string | undefined>> = process.env): StartupBounds {
  const stall = new Map<StartupComponent, number | undefined>();
  for (const entry of (env.SONGMINT_TEST_STALL ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [name = '', ms] = entry.split(':');
    if (!(COMPONENTS as readonly string[]).includes(name)) {
      throw new Error(`SONGMINT_TEST_STALL: unknown component "${name}" (one of ${COMPONENTS.join(', ')})`);
    }
    if (ms !== undefined && !/^[1-9]\d*$/.test(ms)) throw new Error(`SONGMINT_TEST_STALL: not a bound in ms: ${entry}`);
    stall.set(name as StartupComponent, ms === undefined ? undefined : Number(ms));
  }
  const raw = env.SONGMINT_STARTUP_TIMEOUT_MS;
  if (raw === undefined || raw === '') return { stall };
  const timeoutMs = Number(raw);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`SONGMINT_STARTUP_TIMEOUT_MS: not a positive integer: ${raw}`);
  return { timeoutMs, stall };
}

export interface BoundedStep<T> {
  component: StartupComponent;
  /** What is being done, as it reads after the component's name ("initialise the cluster"). */
  step: string;
  timeoutMs: number;
  run: () => Promise<T>;
  /** Undoes a step that timed out (kills its process): called before the error is thrown. */
  abandon?: () => Promise<void>;
  logPath?: string;
  hint?: string;
  bounds?: StartupBounds;
  /** The component's main step (it becoming ready), the one `SONGMINT_TEST_STALL` stalls. */
  main?: boolean;
}

/** Runs one start-up step within its bound; a step that fails or times out throws `StartupError`. */
export async function boundedStep<T>(options: BoundedStep<T>): Promise<T> {
  const bounds = options.bounds ?? startupBounds();
  const stalled = options.main === true && bounds.stall.has(options.component);
  const timeoutMs = (stalled ? bounds.stall.get(options.component) : undefined) ?? bounds.timeoutMs ?? options.timeoutMs;
  const work = stalled ? new Promise<T>(() => undefined) : options.run();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([work.then((value) => ({ value })), expired]);
    if (outcome !== 'expired') return outcome.value;
  } catch (error) {
    throw new StartupError({
      component: options.component,
      step: options.step,
      reason: `failed: ${error instanceof Error ? error.message : String(error)}`,
      ...(options.logPath === undefined ? {} : { logPath: options.logPath, logTail: await logTail(options.logPath) }),
      ...(options.hint === undefined ? {} : { hint: options.hint }),
      timedOut: false,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
  // The step may still settle later: its outcome no longer matters.
  work.catch(() => undefined);
  await options.abandon?.().catch(() => undefined);
  throw new StartupError({
    component: options.component,
    step: options.step,
    reason: `did not finish within ${formatSeconds(timeoutMs)}${stalled ? ' (stalled on purpose by SONGMINT_TEST_STALL)' : ''}`,
    ...(options.logPath === undefined ? {} : { logPath: options.logPath, logTail: await logTail(options.logPath) }),
    ...(options.hint === undefined ? {} : { hint: options.hint }),
    timedOut: true,
  });
}

/**
 * `boundedStep`, tried a second time when the first try fails or times out. Only for steps that
 * are safe to repeat: `prepareRetry` puts things back as they were before the first try.
 */
export async function boundedStepWithRetry<T>(
  options: BoundedStep<T> & { prepareRetry: () => Promise<void>; onRetry?: (error: StartupError) => void },
): Promise<T> {
  try {
    return await boundedStep(options);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    options.onRetry?.(error);
    await options.prepareRetry();
    return boundedStep(options);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The last lines of a log file, or '' when it cannot be read. */
export async function logTail(path: string, lines = 15): Promise<string> {
  try {
    const text = await readFile(path, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
