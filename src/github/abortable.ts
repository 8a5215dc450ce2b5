// Work the step gives up on when the job is cancelled: the runner kills the step seconds later.

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
