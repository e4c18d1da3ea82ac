/**
 * Turns of the event loop (`setImmediate` callbacks) taken while `work` runs, and its result:
 * how a test sees whether long work lets other requests run between its steps.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let running = true;
  const turn = (): void => {
    turns += 1;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const result = await work();
    return { turns, result };
  } finally {
    running = false;
  }
}
