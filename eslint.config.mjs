// ESLint flat config: typescript-eslint's recommended rules plus the type-aware promise rules
// (docs/style.md §Formatting). Formatting itself is Prettier's job (`npm run format:check`).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist-tools/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/cli.ts', 'src/modules/**/commands/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // Tests read loosely typed wire bodies; `any` stays out of src/ (docs/style.md).
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
