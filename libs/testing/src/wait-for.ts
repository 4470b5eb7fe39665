/**
 * Polls until `check` holds (read models apply events asynchronously); fails with `what` after the timeout.
 * 15 s by default: a passing wait ends as soon as the condition holds, and 5 s was seen too short for a
 * background worker on a 2-core machine running two test runs at once.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
