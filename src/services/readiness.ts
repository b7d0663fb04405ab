/**
 * A readiness check whose outcome is reused for `intervalMs`: a load balancer asking every second
 * costs one check (for the write check, one committed row) per interval, whatever the number asking.
 */
export function reusedCheck(check: () => Promise<unknown>, intervalMs: number): () => Promise<void> {
  let last: { at: number; outcome: Promise<void> } | null = null;
  return () => {
    const now = Date.now();
    if (last === null || now - last.at >= intervalMs) {
      last = { at: now, outcome: check().then(() => undefined) };
    }
    return last.outcome;
  };
}
