/**
 * A form tool's call: the fields it names are filled as a person would fill
 * them (each gets `input` and `change`, so the page's own handlers and a
 * framework's bound state see the values), the form's own constraints are
 * checked (what the page's handlers set with setCustomValidity included),
 * and then the form is submitted with requestSubmit(), so the page's submit
 * handlers run as for a person's click. Fields the call does not name keep
 * what they hold; password and file fields are never touched.
 *
 * The submit event is marked the WebMCP way: `event.agentInvoked` is true,
 * and `event.respondWith(promise)` hands the tool's result to the model
 * (after `event.preventDefault()`, as WebMCP asks). Without it, the result
 * says what was sent. A form whose submission navigates takes the page, and
 * the run, with it: the call is answered 'interrupted' when the session
 * opens on the next page.
 */
import type { FormDescription, FormParameter } from './form-schema';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export async function fillAndSubmit(
  form: HTMLFormElement,
  described: FormDescription,
  args: Record<string, unknown>,
): Promise<unknown> {
  for (const parameter of described.parameters) {
    if (Object.prototype.hasOwnProperty.call(args, parameter.name)) fill(parameter, args[parameter.name]);
  }
  const invalid = invalidFields(form);
  if (invalid.length)
    throw new Error(
      `The form was not sent: the page refused ${invalid.map(({ name, message }) => `${name} (${message})`).join('; ')}. Fix these and call ${described.name} again.`,
    );
  return submit(form, described, args);
}

function fill(parameter: FormParameter, value: unknown): void {
  const changed: Field[] = [];
  for (const field of parameter.fields) {
    if (field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox')) {
      const on =
        parameter.kind === 'boolean'
          ? value === true
          : parameter.kind === 'choices'
            ? Array.isArray(value) && value.includes(field.value)
            : value === field.value;
      if (field.checked !== on) {
        field.checked = on;
        changed.push(field);
      }
    } else if (field instanceof HTMLSelectElement && field.multiple) {
      const chosen = new Set(Array.isArray(value) ? value.map(String) : []);
      for (const option of Array.from(field.options)) option.selected = chosen.has(option.value);
      changed.push(field);
    } else {
      setValue(field, value === null || value === undefined ? '' : String(value));
      changed.push(field);
    }
  }
  for (const field of changed) {
    field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/**
 * The value through the element's own prototype setter: a framework that wraps `value` on the instance
 * (React's controlled inputs) then sees the change in the `input` event that follows.
 */
function setValue(field: Field, value: string): void {
  const prototype = Object.getPrototypeOf(field) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
}

/** The form's fields that do not satisfy their constraints now, with the browser's (or the page's) message. */
function invalidFields(form: HTMLFormElement): { name: string; message: string }[] {
  if (form.noValidate) return [];
  return Array.from(form.elements)
    .filter((element): element is Field => 'willValidate' in element && 'checkValidity' in element)
    .filter((field) => field.willValidate && !field.checkValidity())
    .map((field) => ({ name: field.name || field.id || field.localName, message: field.validationMessage }));
}

function submit(form: HTMLFormElement, described: FormDescription, args: Record<string, unknown>): unknown {
  let response: Promise<unknown> | undefined;
  let seen: SubmitEvent | undefined;
  // First of every submit listener (window, capturing): mark the event before the page's handlers read it.
  const mark = (event: Event) => {
    if (event.target !== form || seen) return;
    seen = event as SubmitEvent;
    Object.defineProperty(event, 'agentInvoked', { value: true, configurable: true });
    Object.defineProperty(event, 'respondWith', {
      configurable: true,
      value: (promise: unknown) => {
        if (!event.defaultPrevented)
          throw new DOMException('Call event.preventDefault() before event.respondWith().', 'InvalidStateError');
        response = Promise.resolve(promise);
      },
    });
  };
  window.addEventListener('submit', mark, { capture: true });
  try {
    const submitter = form.querySelector<HTMLElement>(
      'button[type="submit"], button:not([type]), input[type="submit"]',
    );
    form.requestSubmit(submitter && isSubmitter(submitter, form) ? submitter : null);
  } finally {
    window.removeEventListener('submit', mark, { capture: true });
  }
  if (!seen) throw new Error(`The form of ${described.name} was not sent (the browser did not submit it).`);
  if (response) return response;
  const sent = Object.fromEntries(
    described.parameters.filter((p) => p.name in args).map((p) => [p.name, args[p.name]]),
  );
  if (seen.defaultPrevented) return { submitted: true, form: described.name, values: sent };
  return { submitted: true, form: described.name, values: sent, navigating: form.action };
}

function isSubmitter(element: HTMLElement, form: HTMLFormElement): boolean {
  return (element as HTMLButtonElement).form === form && !(element as HTMLButtonElement).disabled;
}
