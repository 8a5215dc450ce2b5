// The CLI's connection settings, from the environment and the global flags, all checked before the
// command runs: a bad one is a "Sanity checks failed:" line naming the variable or flag, exit 1,
// and nothing is sent.
import {
  SettingsProblems,
  parseApiKey,
  parseApiUrl,
  requestTimeoutOrEnv,
} from '../pipeline/index.js';

export interface ConnectionSettings {
  apiKey: string;
  apiUrl: string;
  requestTimeoutMs: number;
}

/** The seed gives the service's address only as a placeholder: there is no default. */
export const NO_API_ADDRESS = 'no API address — set SERVICE_API_URL';
export const NO_API_KEY = 'no API key — set SERVICE_API_KEY (from a CI secret)';

export function connectionSettings(
  env: Record<string, string | undefined>,
  requestTimeoutFlag: unknown,
  options: { ownKeys?: boolean; requestTimeoutName?: string } = {},
): ConnectionSettings {
  const problems = new SettingsProblems();
  const apiKey = options.ownKeys
    ? ''
    : problems.check(() => parseApiKey('SERVICE_API_KEY', env.SERVICE_API_KEY, NO_API_KEY), '');
  const apiUrl = problems.check(
    () => parseApiUrl('SERVICE_API_URL', env.SERVICE_API_URL) ?? '',
    undefined,
  );
  if (apiUrl === '' && !options.ownKeys) problems.add(NO_API_ADDRESS);
  const requestTimeoutMs = problems.check(
    () =>
      requestTimeoutOrEnv(
        options.requestTimeoutName ?? '--request-timeout',
        typeof requestTimeoutFlag === 'string' ? requestTimeoutFlag : undefined,
        env,
      ),
    0,
  );
  problems.throwIfAny();
  return { apiKey, apiUrl: apiUrl ?? '', requestTimeoutMs };
}
