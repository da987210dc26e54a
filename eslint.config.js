// The lint and format gate of `npm test` (docs/decisions.md, "Lint and format"): a small set of
// rules, each catching something that has bitten or would bite this code base. TypeScript itself
// refuses unused locals and parameters (tsconfig.json); formatting is checked, not rewritten.
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

/** A line holding only a string literal (with a closing comma, bracket or semicolon). */
const LONE_STRING = String.raw`^\s*(['"\x60]).*\1[,;)\]]*\s*$`;

export default [
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'bench/.data/', 'bench/results/'] },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { '@stylistic': stylistic },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Format: lines a reader can see whole, and the whitespace and punctuation the code already uses.
      // A line that is one string literal and nothing else (a long message, a preset's text) may be longer.
      '@stylistic/max-len': ['error', { code: 160, tabWidth: 2, ignoreUrls: true, ignoreRegExpLiterals: true, ignorePattern: LONE_STRING }],
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/no-tabs': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0, maxBOF: 0 }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      // Correctness.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-debugger': 'error',
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      'no-restricted-properties': [
        'error',
        { object: 'describe', property: 'only', message: 'A focused test silences the rest of the suite.' },
        { object: 'it', property: 'only', message: 'A focused test silences the rest of the suite.' },
        { object: 'test', property: 'only', message: 'A focused test silences the rest of the suite.' },
      ],
    },
  },
  {
    // src/: configuration is read once, in config.ts (STYLE.md); nothing prints but the entry points.
    // The command-line client (src/cli.ts, src/cli/) is an entry point: it reads its own WARDEN_URL,
    // WARDEN_API_KEY and HOME, and prints.
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts', 'src/main.ts', 'src/cli.ts', 'src/cli/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in src/config.ts and pass it down (STYLE.md).' },
        { object: 'describe', property: 'only', message: 'A focused test silences the rest of the suite.' },
        { object: 'it', property: 'only', message: 'A focused test silences the rest of the suite.' },
      ],
      'no-console': 'error',
    },
  },
];
