// Jest on Node 20 cannot require ESM. @fastify/static (Swagger UI assets on Fastify) requires the ESM-only
// content-disposition@3 for `create`; v1 (CommonJS, Express' own copy) is the same function. Where npm puts
// v1 depends on hoisting, so look in both places.
const fs = require('node:fs');
const path = require('node:path');

const modules = path.join(__dirname, '..', '..', 'node_modules');
const commonJsCopy = [
  path.join(modules, 'express', 'node_modules', 'content-disposition', 'index.js'),
  path.join(modules, 'content-disposition', 'index.js'),
].find((file) => fs.existsSync(file));
if (!commonJsCopy) throw new Error('no CommonJS content-disposition found for the jest shim');

const contentDisposition = require(commonJsCopy);
module.exports = Object.assign((...args) => contentDisposition(...args), {
  create: contentDisposition,
  parse: contentDisposition.parse,
});
