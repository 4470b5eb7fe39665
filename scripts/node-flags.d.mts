/** The V8 flags every Skald process is started with (node-flags.mjs says why). */
export declare const NODE_FLAGS: readonly string[];
