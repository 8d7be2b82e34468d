/**
 * Loads a module on first use and hands out the same promise afterwards. Heavy libraries a server may
 * never need (sharp, the AWS SDK, nodemailer, GraphQL, openid-client) sit behind one of these,
 * so `tessera start` neither spends start-up time nor resident memory on them (docs/performance.md,
 * "Start and memory"). A failed load is tried again on the next call rather than cached.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
