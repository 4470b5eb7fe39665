/** HTTP answer shapes of the logs service (see common.ts for how they are used). */
export {};
