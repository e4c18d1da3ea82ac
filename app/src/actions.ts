import { byId, describeError } from './dom.ts';

/** Says what is happening in the shared live region. */
export function announce(line: string): void {
  byId('status').textContent = line;
}

export function clearError(): void {
  byId('error').hidden = true;
}

export function showError(error: unknown, context = ''): void {
  const alert = byId('error');
  alert.textContent = `${context}${describeError(error)}`;
  alert.hidden = false;
}

/**
 * Runs one action of a person: its control is disabled and says it is busy while it runs, the
 * progress goes to the live region, a failure to the alert region (the control comes back).
 */
export async function runAction(
  control: HTMLButtonElement | HTMLFieldSetElement,
  progress: string,
  work: () => Promise<void>,
): Promise<void> {
  clearError();
  control.disabled = true;
  control.setAttribute('aria-busy', 'true');
  announce(progress);
  try {
    await work();
  } catch (error) {
    showError(error);
    announce('');
  } finally {
    control.disabled = false;
    control.removeAttribute('aria-busy');
  }
}
