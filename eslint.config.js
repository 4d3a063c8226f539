// Beyond typescript-eslint's recommended set, the linter stops an import
// cycle between the project's modules (type-only imports do not count: they
// vanish at run time).
import tseslint from 'typescript-eslint'
import { importX } from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tap/', 'test-artifacts/'] },
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read answers as loosely typed JSON.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
