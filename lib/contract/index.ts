/**
 * The wire contract between our server, the browser and the tests: what a batch is, what a date range is,
 * the lines of the batch stream and how an interrupted stream names what is left. Browser-safe: no secrets,
 * no Node, nothing of the upstream client.
 */
export * from './batch';
export * from './parts';
export * from './range';
export * from './storable-text';
export * from './stream';
export * from './targets';
// Not the schemas (schemas.ts): the browser imports this index, and they are the server's (zod).
