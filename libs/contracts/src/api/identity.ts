/** HTTP answer shapes of the identity service (see common.ts for how they are used). */
export {};
