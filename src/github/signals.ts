// The runner cancels a job with SIGINT, then SIGTERM 7.5 s later, then kills the process tree.
// Both signals abort the pipeline, which cancels its remote scan within that grace; a second
// signal changes nothing (the cancel is already under way).

import * as log from './log.js';

export function abortOnSignals(controller: AbortController): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      log.info(`Received ${signal} again; still cancelling`);
      return;
    }
    log.info(`Received ${signal}: cancelling`);
    const reason = new Error(`cancelled by ${signal}`);
    reason.name = 'AbortError';
    controller.abort(reason);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** The work's value, or undefined as soon as the signal aborts: the work is abandoned (the main
 *  entry exits right after run() returns, so nothing it left pending holds the step open). */
export function unlessAborted<T>(
  work: () => Promise<T>,
  signal: AbortSignal,
): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work().then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
