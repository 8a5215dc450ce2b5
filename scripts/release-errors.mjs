// How the release scripts stop: one line `<script>: <what is wrong and what to do>`, exit 1 for a
// problem found, 2 for a usage error; a stack trace only for a bug.
export class ReleaseError extends Error {}
export class UsageError extends Error {}

export function fail(message) {
  throw new ReleaseError(message);
}

/** Runs a script's body and returns its exit code. */
export async function runScript(name, body) {
  try {
    return (await body()) ?? 0;
  } catch (error) {
    const usage = error instanceof UsageError || error?.code?.startsWith('ERR_PARSE_ARGS');
    if (!usage && !(error instanceof ReleaseError)) throw error;
    console.error(`${name}: ${error.message}`);
    return usage ? 2 : 1;
  }
}
