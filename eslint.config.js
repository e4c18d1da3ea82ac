import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'artifacts/**',
      'cache/**',
      'typechain-types/**',
      'coverage/**',
      '.data/**',
      'ignition/deployments/**',
      'inference/models/**',
      'app/dist/**',
      'app/dist.building-*/**',
      'sdk/dist/**',
      'react/dist/**',
      'examples/react/dist/**',
      'test/react/harness/dist/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      // A `/// <reference lib="dom" />` in one file gives the whole Node program the DOM's globals,
      // so tsc stops catching `window` or `document` in a server module: the app has its own tsconfig.
      '@typescript-eslint/triple-slash-reference': ['error', { lib: 'never', path: 'never', types: 'prefer-import' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Runtime code logs through pino (structured, with levels); scripts and tests print for people.
    files: ['oracle/src/**/*.ts', 'inference/src/**/*.ts', 'core/src/**/*.ts'],
    ignores: ['core/src/testing/**'],
    rules: { 'no-console': 'error' },
  },
);
