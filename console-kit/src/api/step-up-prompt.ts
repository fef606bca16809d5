import type { ApiError } from './api-types';

/** Asks the person to confirm their identity again; resolves true once confirmed, false when cancelled. */
export type StepUpPrompt = () => Promise<boolean>;

const prompts = new WeakMap<object, StepUpPrompt>();

/**
 * Sensitive actions answer 403 with `data.step_up_required` when the last password or second-factor
 * check is not recent. The mount's dialog (StepUpHost) registers here; the base query asks it and, once
 * confirmed, sends the call again.
 */
export function registerStepUpPrompt(runtime: object, prompt: StepUpPrompt): () => void {
  prompts.set(runtime, prompt);
  return () => {
    if (prompts.get(runtime) === prompt) prompts.delete(runtime);
  };
}

/** A 403 whose envelope (kept whole in `error.data`) says `data.step_up_required`. */
export function isStepUpRequired(error: ApiError): boolean {
  if (error.status !== 403 || typeof error.data !== 'object' || error.data === null) return false;
  const inner = (error.data as { data?: unknown }).data;
  return (
    typeof inner === 'object' &&
    inner !== null &&
    (inner as { step_up_required?: unknown }).step_up_required === true
  );
}

/** False when no dialog is mounted (the caller then shows the server's message). */
export function confirmStepUp(runtime: object): Promise<boolean> {
  const prompt = prompts.get(runtime);
  return prompt ? prompt() : Promise.resolve(false);
}
