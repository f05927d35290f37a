// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** One configuration for the service, its tests, benchmarks and scripts; formatting is Prettier's alone. */
export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'data/', '.data/', 'node_modules/', 'bench/results/', 'test-artifacts/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      // `_`-prefixed names are deliberately unused (a required parameter position, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Nest modules are decorated empty classes by design.
      '@typescript-eslint/no-extraneous-class': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // The developer portal runs in the browser (bundled by scripts/build-portal.ts), not in node.
    files: ['portal/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Command-line programs talk to their terminal.
    files: ['scripts/**', 'bench/**', 'src/cli/**', 'src/simulator/main.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Response bodies read in tests are whatever the server sent; typing each one would only restate the assertion.
    files: ['test/**', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
