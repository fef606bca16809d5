import { EventEmitter } from 'node:events';

/**
 * Tells an upstream call that the client went away. undici accepts an EventEmitter with an 'abort'
 * event as `signal`; this one costs a plain object per request, where an AbortController's signal costs
 * several microseconds to create on Node 20.
 */
export class ClientSignal extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}
