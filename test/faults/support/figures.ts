/**
 * Figures a fault test measured (jobs exactly once, requests fuzzed, faults survived), appended as
 * JSON lines to FAULTS_FIGURES_FILE when the runner (scripts/test-faults.ts) sets it, and printed.
 */
import { appendFileSync } from 'node:fs';

export type Figures = Readonly<Record<string, number | string | boolean>>;

export function recordFigure(name: string, figures: Figures): void {
  const line = JSON.stringify({ name, ...figures });
  console.log(`figure ${line}`);
  const file = process.env.FAULTS_FIGURES_FILE;
  if (file !== undefined && file !== '') appendFileSync(file, `${line}\n`);
}
