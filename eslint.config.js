// typescript-eslint's recommended set. Import cycles are test/architecture.test.ts's
// to find, on the compiled modules (a linter's import resolver cost as much as the rest of the lint).
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tap/', 'test-artifacts/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read answers as loosely typed JSON.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
