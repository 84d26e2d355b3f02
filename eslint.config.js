// Lint: typescript-eslint's recommended rules with type information (a promise nobody awaits is an
// error: it hides failures and races), Vue's essential rules, and the renderer's boundary: it imports
// only the shared part of core, never Node, Electron, keytar or the HTTP client.
import pluginVue from 'eslint-plugin-vue'
import tseslint from 'typescript-eslint'
import vueParser from 'vue-eslint-parser'

/** Core modules the renderer may import: types, rules and words both sides share (no Node). */
const SHARED_CORE = ['contract', 'domain', 'userInput', 'money', 'errors', 'time', 'externalLinks', 'plainWords', 'listingFields']

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
            { group: ['node:*', 'electron', 'electron/*', 'keytar', 'ky', 'libsql', '**/electron/**'], message: 'The renderer runs in a sandboxed page: it reaches the main side only through the contract.' },
            { group: ['@core/*', ...SHARED_CORE.map((name) => `!@core/${name}`)], message: `The renderer imports only the shared part of core: ${SHARED_CORE.join(', ')}.` }
          ]
        }
      ]
    }
  }
)
