import { byId, describeError, h } from './dom.ts';

/**
 * Where an action's outcome is written: a live region (role=status) and an alert (role=alert)
 * right after the control that caused it, so a person sees it where they are looking and a screen
 * reader says it. A fieldset gets them at its end (under its last row of buttons); a button in a
 * `.row` or a form under that row; controls side by side share one.
 */
interface ActionMessages {
  status: HTMLElement;
  alert: HTMLElement;
}

function anchorOf(control: Element): { parent: Element; after: Element | null } {
  if (control instanceof HTMLFieldSetElement) return { parent: control, after: control.lastElementChild };
  const anchor = control.closest('.row, form') ?? control;
  return { parent: anchor.parentElement ?? document.body, after: anchor };
}

/** The message area next to `control`, made on first use. */
export function messagesNear(control: Element): ActionMessages {
  const { parent, after } = anchorOf(control);
  const next = after === null ? parent.firstElementChild : after.nextElementSibling;
  const found =
    after?.classList.contains('action-messages') === true ? after : next?.classList.contains('action-messages') === true ? next : null;
  const area: Element =
    found ??
    h(
      'div',
      { class: 'action-messages' },
      h('p', { class: 'action-status', role: 'status', 'aria-live': 'polite' }),
      h('p', { class: 'action-alert error', role: 'alert', hidden: true }),
    );
  if (found === null) {
    if (after === null) parent.prepend(area);
    else after.after(area);
  }
  const status = area.querySelector<HTMLElement>('.action-status');
  const alert = area.querySelector<HTMLElement>('.action-alert');
  if (status === null || alert === null) throw new Error('an action message area lost its regions');
  return { status, alert };
}

/**
 * Gives every control under `root` that runs actions (`data-action`) its message area now, before
 * it has anything to say: a screen reader announces changes only to live regions already in the
 * page. Called for whatever is added to the page (main.ts), so a card added later gets its own.
 */
export function prepareActionMessages(root: ParentNode): void {
  for (const control of root.querySelectorAll('[data-action]:not([data-messages-ready])')) {
    if (!control.isConnected) continue;
    messagesNear(control);
    control.setAttribute('data-messages-ready', '');
  }
}

/**
 * Takes back what an earlier action of `control` said, once the person changes what it would do
 * (a refusal of the last amount is not about the new one). Leaves the page as it is when the
 * control has said nothing yet.
 */
export function clearActionMessages(control: Element): void {
  const { parent, after } = anchorOf(control);
  const area = after === null ? parent.firstElementChild : after.nextElementSibling;
  if (area?.classList.contains('action-messages') !== true) return;
  const { status, alert } = messagesNear(control);
  status.textContent = '';
  alert.textContent = '';
  alert.hidden = true;
}

/** The control whose action is running (the latest, when several are): its messages take announce and showError. */
function busyControl(): Element | null {
  const busy = document.querySelectorAll('[data-action-running]');
  return busy.item(busy.length - 1);
}

/** The page-wide regions, for what no control caused (a view that could not load, the page not starting). */
function pageMessages(): ActionMessages {
  return { status: byId('status'), alert: byId('error') };
}

/** Says what is happening: next to the running action's control, or `near`, else in the page's live region. */
export function announce(line: string, near?: Element): void {
  const target = near ?? busyControl();
  (target === null ? pageMessages() : messagesNear(target)).status.textContent = line;
}

export function clearError(): void {
  byId('error').hidden = true;
}

/** An error in words a person can act on (`describeError`): next to `near` or the running action's control, else page-wide. */
export function showError(error: unknown, context = '', near?: Element): void {
  const target = near ?? busyControl();
  const messages = target === null ? pageMessages() : messagesNear(target);
  messages.alert.textContent = `${context}${describeError(error)}`;
  messages.alert.hidden = false;
}

/**
 * Runs one action of a person: its control is disabled and says it is busy while it runs; its
 * progress and its outcome are written next to it (a failure as an alert; the control comes back;
 * the progress line goes once the work is done, unless the work said something in its place).
 */
export async function runAction(
  control: HTMLButtonElement | HTMLFieldSetElement,
  progress: string,
  work: () => Promise<void>,
): Promise<void> {
  const messages = messagesNear(control);
  messages.alert.hidden = true;
  messages.alert.textContent = '';
  // Disabling the pressed button drops the keyboard focus to <body>: it comes back when the work ends (below).
  const hadFocus = document.activeElement !== null && control.contains(document.activeElement);
  control.disabled = true;
  control.setAttribute('aria-busy', 'true');
  control.setAttribute('data-action-running', '');
  messages.status.textContent = progress;
  try {
    await work();
    // Done: a progress line nothing replaced ("Reading the launch terms…") is no longer true.
    if (messages.status.textContent === progress) messages.status.textContent = '';
  } catch (error) {
    messages.status.textContent = '';
    messages.alert.textContent = describeError(error);
    messages.alert.hidden = false;
    // On a small screen the line under the control may be just below the fold: bring it in.
    messages.alert.scrollIntoView({ block: 'nearest' });
  } finally {
    control.disabled = false;
    control.removeAttribute('aria-busy');
    control.removeAttribute('data-action-running');
    // Back on the control, or, when the work replaced it (Mint, Launch), on the view's heading: never <body>.
    if (hadFocus && (document.activeElement === null || document.activeElement === document.body))
      (control.isConnected ? control : document.getElementById('view-title'))?.focus();
  }
}
