// Lint rules of the TypeScript and Svelte sources (`npm run lint`, also run by `npm test`): typescript-eslint's
// recommended set without type information (fast: the compiler already checks types) and Svelte's, with the few
// adjustments below. Formatting is Prettier's (`npm run format`), not the linter's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'renderer/dist/**',
      'node_modules/**',
      'native-core/**',
      'clients/python/**',
      'contract/results/result-schemas.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_name` marks a parameter or binding kept for its position or to drop a key from a rest object
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Svelte 5 props are destructured with `let` when one of them is bindable
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      'no-var': 'error',
      // a Set copied, changed and assigned to $state whole is reactive through the assignment
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    // Tests and benches reach into untyped JSON answers; Kysely's schema code takes Kysely<any> (its documented type
    // for migrations); the New task form holds the values of any task type's configuration as untyped JSON.
    files: [
      'test/**/*.ts',
      'bench/**/*.ts',
      'main/db/**/*.ts',
      'renderer/src/lib/taskforms.ts',
      'renderer/src/lib/task-form-values.ts',
      'renderer/src/screens/NewTask.svelte',
      'renderer/src/components/TaskField.svelte',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs', '**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
);
