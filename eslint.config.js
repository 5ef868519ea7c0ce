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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
