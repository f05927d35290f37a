/** Three tiers (STYLE.md): unit specs beside the code, integration and e2e on real PostgreSQL + Redis. */
const transform = {
  '^.+\\.ts$': [
    'ts-jest',
    {
      tsconfig: {
        isolatedModules: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        target: 'ES2022',
        module: 'commonjs',
        esModuleInterop: true,
        strict: true,
      },
    },
  ],
};
const common = {
  transform,
  moduleNameMapper: { '^content-disposition$': '<rootDir>/test/support/content-disposition-shim.js' },
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  // Rate-limit tests wait up to 20 s for a fresh clock-minute window before their burst (a global option:
  // jest ignores testTimeout inside projects).
  testTimeout: 90_000,
  projects: [
    { ...common, displayName: 'unit', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/portal/src/**/*.spec.ts'] },
    { ...common, displayName: 'integration', rootDir: '.', testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'] },
    // Every answer the e2e suite receives is checked against the app's served OpenAPI document.
    {
      ...common,
      displayName: 'e2e',
      rootDir: '.',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
    // Billing through faults: replicas as processes of their own, a private Redis killed, connections cut.
    { ...common, displayName: 'faults', rootDir: '.', testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'] },
    // The developer portal in headless Chromium (playwright-core; CHROMIUM_PATH or /usr/bin/chromium).
    { ...common, displayName: 'browser', rootDir: '.', testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'] },
  ],
};
