/**
 * The most a request body may declare or carry, on both adapters: Express's JSON parser default (100 KB),
 * given to Fastify too (its own default is 1 MiB). The public API takes no bodies at all, so this only
 * bounds what a client can make the server read before refusing it.
 */
export const MAX_BODY_BYTES = 100 * 1024;
