/** Polls until `check` holds (read models apply events asynchronously); fails with `what` after the timeout. */
export async function waitFor(check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
