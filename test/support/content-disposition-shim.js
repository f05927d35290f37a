// Jest on Node 20 cannot require ESM. @fastify/static (Swagger UI assets on Fastify) requires the ESM-only
// content-disposition@3 for `create`; v1 (CommonJS, Express' own copy) is the same function.
const contentDisposition = require('../../node_modules/content-disposition/index.js');
module.exports = Object.assign((...args) => contentDisposition(...args), {
  create: contentDisposition,
  parse: contentDisposition.parse,
});
