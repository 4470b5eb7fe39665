/** The ingestion service: its factory is all other packages need (the gateway mounts it by this name). */
export { createIngestionService } from './ingestion-service.ts';
