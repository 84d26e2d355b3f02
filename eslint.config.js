// Lint: typescript-eslint's recommended rules with type information (a promise nobody awaits is an
// error: it hides failures and races), Vue's essential rules, and the layers' boundaries: the renderer
// imports only electron/shared (as @shared), never Node, Electron, keytar, the HTTP client or the core;
// electron/shared imports nothing but zod and its own folder, so both sides can load it. Only the snapshot
// (electron/core/snapshot) holds its database: everything else reads and writes through what the snapshot
// offers, so the tables' SQL lives in one place.
import eslintConfigPrettier from 'eslint-config-prettier/flat'
import pluginVue from 'eslint-plugin-vue'
import tseslint from 'typescript-eslint'
import vueParser from 'vue-eslint-parser'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', '.tmp/**', 'docs/**', 'resources/**'] },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/essential'],
  {
    files: ['**/*.ts', '**/*.vue'],
    languageOptions: {
      parser: vueParser,
      parserOptions: { parser: tseslint.parser, projectService: true, tsconfigRootDir: import.meta.dirname, extraFileExtensions: ['.vue'] }
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }]
    }
  },
  {
    files: ['src/**/*.ts', 'src/**/*.vue'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', 'electron/*', 'keytar', 'ky', 'libsql', '**/electron/**', '@core/*'],
              message: 'The renderer runs in a sandboxed page: it reaches the main side only through the contract, and imports only @shared/*.'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['electron/shared/**/*.ts'],
    ignores: ['electron/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod$|\\.)', message: 'electron/shared is loaded by the renderer and the main side alike: it imports only zod and its own folder.' },
            {
              group: ['**/core/**', '**/sandbox/**', '**/main/**', '**/preview/**', '**/preload/**', '**/src/**'],
              message: 'electron/shared imports only zod and its own folder.'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/core/snapshot/**', 'electron/**/*.test.ts', 'electron/**/*.fixture.ts', 'electron/**/*.child.ts', 'electron/**/*.steps.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='database']",
          message: 'Only electron/core/snapshot touches the snapshot database: read and write through what the snapshot offers (e.g. snapshot.bulkEdit).'
        }
      ]
    }
  },
  // Layout is Prettier's (npm run lint checks it): no lint rule argues with it.
  eslintConfigPrettier
)
