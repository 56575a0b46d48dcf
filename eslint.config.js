import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import lingui from 'eslint-plugin-lingui';

/** Import boundaries of the house style: web and server never import each other; shared imports neither. */
const noImport = (...worlds) => ({
  'no-restricted-imports': [
    'error',
    { patterns: worlds.map((w) => ({ group: [`**/${w}/**`], message: `This world must not import from src/${w}.` })) },
  ],
});

/**
 * Layer boundaries (docs/decisions/020-layering.md), checked on resolved files rather than import
 * strings, so `../payments` and `./modules/payments/index` are the same import. Policies are read in
 * order and the last one that matches an import decides; anything no policy names is allowed.
 */
const moduleOrFeature = { element: { type: ['server-module', 'web-feature'] } };
const layerBoundaries = {
  files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'e2e/**/*.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    // Patterns and tsconfig from the repository root, wherever eslint is started.
    'boundaries/root-path': import.meta.dirname,
    'import/resolver': { typescript: { project: `${import.meta.dirname}/tsconfig.json` } },
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    'boundaries/elements': [
      { type: 'server-module', pattern: 'src/server/modules/*', capture: ['module'], partialMatch: false },
      { type: 'web-feature', pattern: 'src/web/features/*', capture: ['feature'], partialMatch: false },
      { type: 'server', pattern: 'src/server', partialMatch: false },
      { type: 'web', pattern: 'src/web', partialMatch: false },
      { type: 'shared', pattern: 'src/shared', partialMatch: false },
      { type: 'tests', pattern: ['test', 'e2e'], partialMatch: false },
    ],
    'boundaries/files': [
      { category: 'entry', pattern: ['src/server/modules/*/index.ts', 'src/web/features/*/index.{ts,tsx}'] },
      { category: 'test', pattern: ['test/**', 'e2e/**', 'src/**/*.test.{ts,tsx}'] },
      { category: 'routes', pattern: 'src/server/**/*.routes.ts' },
      { category: 'service', pattern: 'src/server/**/*.service.ts' },
      { category: 'repository', pattern: 'src/server/**/*.repository.ts' },
      { category: 'db', pattern: 'src/server/db/**' },
      { category: 'db-types', pattern: ['src/server/db/schema.ts', 'src/server/db/transaction.ts'] },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        // External packages ('kysely') and imports inside one module (routes → repository) are checked too.
        checkAllOrigins: true,
        checkInternals: true,
        policies: [
          {
            disallow: { to: { element: { type: 'server-module' } } },
            message: 'Import a server module only through its index.ts (modules/<name>).',
          },
          {
            disallow: { from: { element: { type: 'web-feature' } }, to: { element: { type: 'web-feature' } } },
            message: "Import another web feature only through its index.ts (features/<name>); the app shell may use features' files.",
          },
          // Allowed after all: the index.ts itself, files of the same module or feature, and tests.
          { allow: { to: { ...moduleOrFeature, file: { categories: 'entry' } } } },
          { allow: { to: moduleOrFeature, dependency: { relationship: { to: 'internal' } } } },
          { allow: { from: { file: { categories: 'test' } }, to: moduleOrFeature } },
          {
            disallow: {
              from: { file: { categories: 'routes' } },
              to: [{ file: { categories: ['db', 'repository'] } }, { module: { source: 'kysely' } }],
            },
            message: 'Routes call services only: no db/**, kysely or repositories.',
          },
          {
            disallow: {
              from: { file: { categories: 'service' } },
              to: [{ file: { categories: 'db' } }, { module: { source: 'kysely' } }],
            },
            message: 'Services do no I/O: use a repository and InTransaction (type-only imports of db/schema and db/transaction are fine).',
          },
          { allow: { from: { file: { categories: 'service' } }, to: { file: { categories: 'db-types' } }, dependency: { kind: 'type' } } },
        ],
      },
    ],
  },
};

/**
 * Every word the web app shows goes through the catalogs (docs/decisions/054-languages.md): a
 * string literal, template or JSX text with words in it is an error, except where it is not shown
 * (class names, paths, ids, test ids, keys) or is a message id (`t('…')`, `<T id>`). A single word
 * in lower case (an enum value, a CSS token) or in capitals (a constant) is not text.
 */
const untranslatedText = {
  files: ['src/web/**/*.{ts,tsx}'],
  ignores: ['src/web/**/*.test.{ts,tsx}', 'src/web/i18n/**', 'src/web/sw.ts'],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  plugins: { lingui },
  rules: {
    'lingui/no-unlocalized-strings': [
      'error',
      {
        useTsTypes: true,
        ignore: ['^(?![A-Z])\\S+$', '^[A-Z0-9_-]+$', '^[^a-zA-Z]*$'],
        ignoreNames: [
          {
            regex: {
              pattern:
                'className|^(href|to|src|srcSet|sizes|type|id|role|variant|size|key|name|autoComplete|inputMode|method|rel|target|testId|data-.*|aria-(controls|describedby|labelledby|live|current|haspopup|hidden)|fill|stroke|d|viewBox|xmlns|strokeLinecap|strokeLinejoin|loading|decoding|fetchPriority|accept|pattern|dir|lang|htmlFor|form|enterKeyHint|spellCheck)$',
              flags: 'i',
            },
          },
          { regex: { pattern: '^[A-Z0-9_-]+$' } },
        ],
        ignoreFunctions: [
          't',
          '_',
          'Error',
          'console.*',
          '*.includes',
          '*.startsWith',
          '*.endsWith',
          'URL',
          'URLSearchParams',
          '*.get',
          '*.set',
          '*.append',
          '*.delete',
          'storage.*',
          'document.*',
          '*.querySelector',
          '*.querySelectorAll',
          '*.setAttribute',
          '*.getAttribute',
          '*.addEventListener',
          '*.removeEventListener',
          'navigate',
          'fetch',
          'apiRequest',
          'apiGet',
          'request',
          'matchMedia',
          '*.matchMedia',
          'import',
        ],
      },
    ],
  },
};

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
  {
    files: ['src/server/**'],
    ignores: ['src/server/**/*.test.ts'],
    rules: {
      // V8 keeps what an object literal with a getter or setter reaches alive until a full collection
      // (docs/decisions/046-no-literal-getters.md): made per request, that fills the old generation.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ObjectExpression > Property[kind='get'], ObjectExpression > Property[kind='set']",
          message: 'No getter or setter in an object literal: use a class (docs/decisions/046-no-literal-getters.md).',
        },
      ],
    },
  },
  { files: ['src/shared/**'], rules: noImport('server', 'web') },
  untranslatedText,
  layerBoundaries,
  { files: ['**/*.js', '**/*.mjs'], rules: { '@typescript-eslint/consistent-type-imports': 'off' } },
);
