import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import boundaries of the house style: web and server never import each other; shared imports neither. */
const noImport = (...worlds) => ({
  'no-restricted-imports': [
    'error',
    { patterns: worlds.map((w) => ({ group: [`**/${w}/**`], message: `This world must not import from src/${w}.` })) },
  ],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'tmp/', 'test-results/', 'coverage/', 'dev-dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...noImport('server') },
  },
  { files: ['src/server/**'], rules: noImport('web') },
  { files: ['src/shared/**'], rules: noImport('server', 'web') },
  { files: ['**/*.js', '**/*.mjs'], rules: { '@typescript-eslint/consistent-type-imports': 'off' } },
);
