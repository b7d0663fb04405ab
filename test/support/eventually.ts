/** The value once `read` finds one, polling every 20 ms for up to `withinMs` (buffered writes land within a second). */
export async function eventually<T>(read: () => Promise<T | undefined>, withinMs = 10_000): Promise<T> {
  for (let waited = 0; ; waited += 20) {
    const value = await read();
    if (value !== undefined) return value;
    if (waited > withinMs) throw new Error(`not found within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
