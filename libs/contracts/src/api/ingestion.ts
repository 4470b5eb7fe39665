/** HTTP answer shapes of the ingestion service (see common.ts for how they are used). */
export {};
