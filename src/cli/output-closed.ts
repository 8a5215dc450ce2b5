// The reader of the output went away (`tenant-scan scan list --json | head -1`): a write to the
// pipe fails with EPIPE (Node ignores SIGPIPE, so the error comes as an event, which would crash
// the process with a stack trace when nobody listens). The command is stopped as on a signal (a
// scan started by `scan run --watch` is cancelled) and the process exits quietly with 141.

/** 128 + SIGPIPE: what a shell reports for a program a closed pipe ended (`git log | head`). Not
 *  0: the output was not all delivered, and a closed pipe must never turn an error or a failed
 *  gate into a success. */
export const EXIT_OUTPUT_CLOSED = 141;

/** The abort reason when the output's reader went away: nothing more is said. */
export class OutputClosed extends Error {
  constructor() {
    super('the output was closed');
    this.name = 'OutputClosed';
  }
}

/** The exit code for an error on stdout or stderr: the reader went away (EPIPE, and the writes
 *  after it), or the output itself failed (a full disk: an error, exit 1). */
export function outputErrorCode(error: unknown): number {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' ? EXIT_OUTPUT_CLOSED : 1;
}

/** The line for an output that failed other than by its reader going away. */
export function outputFailedLine(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  return `tenant-scan: error: the output could not be written (${code})`;
}

/** Calls `onClosed` with the exit code the first time stdout or stderr fails; never throws. */
export function watchOutputs(
  streams: readonly NodeJS.WriteStream[],
  onClosed: (code: number, error: unknown) => void,
): void {
  let told = false;
  for (const stream of streams) {
    stream.on('error', (error: unknown) => {
      if (told) return;
      told = true;
      onClosed(outputErrorCode(error), error);
    });
  }
}
