/**
 * For `*.int.test.ts`: decides whether a suite that needs a service runs.
 * Returns `null` when the service is reachable; otherwise a reason string to show in a
 * skipped test's name. With STRATA_REQUIRE_SERVICES=1 an unreachable service throws, so CI
 * fails instead of silently skipping.
 */
export async function requireService(name: string, probe: () => Promise<void>): Promise<string | null> {
  try {
    await probe();
    return null;
  } catch (error) {
    const reason = `${name} unavailable: ${error instanceof Error ? error.message : String(error)}`;
    if (process.env.STRATA_REQUIRE_SERVICES === '1') {
      throw new Error(`${reason} (STRATA_REQUIRE_SERVICES=1; start it with scripts/services.sh up)`);
    }
    return reason;
  }
}
