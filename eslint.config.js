// ESLint over the service, its tools and scripts, the tests and the web UI: typescript-eslint's
// recommended rules with type information, where they fit this code. Formatting is prettier's
// (.prettierrc.json), so no rule here is about layout. `npm run lint` runs it; CI runs it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Made from openapi/openapi.yaml by `npm run generate:api`; built output; fixtures as data.
    ignores: ['dist/**', 'node_modules/**', 'ui/src/api/openapi.gen.ts', 'test/golden/**', 'test/fixtures/git-format/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Names starting with _ are unused on purpose (a parameter a signature requires, a key left out of a rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A method of an async port (a backend, a source of keys) may have nothing to wait for in one
      // of its implementations (the memory backend); it stays async so that it throws as a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read answers as the JSON they are (res.json() is any) and poke at them: a type for each
    // answer would restate the OpenAPI document, which the contract tests hold the answers to already.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
