'use strict';
// Minimal TypeScript require hook for the benchmark servers, used instead of ts-node/register on purpose:
// ts-node loads node:repl, which loads node:domain, and once node:domain is loaded every EventEmitter and
// emit() in the process takes the domain path; it also installs source-map-support. Both are per-request
// costs production (`node dist/...`) does not pay, so they would bias the figures. Same transpile as
// `ts-node --transpile-only` (TypeScript's transpileModule with tsconfig.json's compilerOptions).
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const configPath = path.resolve(__dirname, '../../tsconfig.json');
const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, path.dirname(configPath));
const compilerOptions = { ...options, sourceMap: false, inlineSourceMap: false, declaration: false, incremental: false };

require.extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
