/**
 * Retries `check` every `intervalMs` until it passes, and returns what it returns; past `timeoutMs` its last
 * error is thrown. For what another instance learns through Redis, which a busy 2-core machine delivers late.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
