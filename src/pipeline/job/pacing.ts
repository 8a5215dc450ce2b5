// TENANT_SCAN_TEST_PACING_MS: a test setting. Against local stand-ins, tests shorten the waits that
// pace a real service and GitHub — the scan and report polls (1 s at least) and the spacing of
// GitHub writes (1 s) — to this many milliseconds, 50 to 1000 (docs/development.md). Unset, an
// unreadable value or one outside that range changes nothing: it can only shorten, never stretch.

export const TEST_PACING_ENV = 'TENANT_SCAN_TEST_PACING_MS';
const MIN_MS = 50;
const MAX_MS = 1_000;

/** The shortened pacing in ms, or undefined when the setting is absent or not a valid value. */
export function testPacingMs(env: Record<string, string | undefined>): number | undefined {
  const raw = env[TEST_PACING_ENV]?.trim();
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const ms = Number(raw);
  return ms >= MIN_MS && ms <= MAX_MS ? ms : undefined;
}

/** Poll intervals for runScanJob: every scan and report poll at the shortened pacing, or the
 *  defaults (1 s at least, up to 30 s). */
export function pollIntervalsOf(
  env: Record<string, string | undefined>,
): { min: number; max: number } | undefined {
  const ms = testPacingMs(env);
  return ms === undefined ? undefined : { min: ms, max: ms };
}
