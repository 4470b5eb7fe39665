/**
 * The start-up line every Skald process prints once its HTTP port is bound (gateway/src/launch.ts),
 * `Skald (<target>) listening on http://<host>:<port>`, read by whatever starts one with PORT=0: tests,
 * the browser walkthrough's server, the start-up bench, the image's compile-cache warm-up. The kernel
 * picks the port at bind time; a port picked beforehand and bound later could be taken in between by
 * another test file running in parallel. The line is logged at info: the process's LOG_LEVEL must not be
 * above it.
 *
 * Imports nothing: the web walkthrough takes it alone (@skald/testing/listening-line), and the warm-up
 * (scripts/warm-compile-cache.ts) by path, in an image that holds libs/ but not the test kit's dependencies.
 */
/** The port ends where something else follows: output read while a line is still arriving may stop inside it. */
const LISTENING = /listening on http:\/\/[^\s"]+:(\d+)(?=\D)/;

/** The port of the first listening line in a process's output; undefined until it printed one whole. */
export function listeningPort(output: string): number | undefined {
  const port = LISTENING.exec(output)?.[1];
  return port === undefined ? undefined : Number(port);
}
