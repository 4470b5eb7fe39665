/**
 * The HTTP client of a benchmark in a process of its own (started with PinnedChild): `post` sends fixed
 * POSTs over N connections (postRequests) and answers how many were created. Out of the process under
 * test, so the CPU time that process reports per request is the server's alone.
 */
import { postRequests } from './http-load.ts';
import { serve } from './pinned/child-rpc.ts';

export interface PostBatches {
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly requests: number;
  readonly connections: number;
}

serve({
  post: (load: PostBatches) => postRequests(load.url, load.body, load.headers, { requests: load.requests, connections: load.connections }),
});
