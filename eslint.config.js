// ESLint for the web app: the import boundaries of bulletproof-react, and typescript-eslint's recommended rules.
import fs from 'node:fs';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const features = fs
  .readdirSync('web/src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Imports go one way: shared (components, lib, config) → features → app. A feature reaches another only
 * through its public index (web/src/features/<feature>/index.ts). The app composes the features and may
 * import a feature's module directly (the home pages do, so that the first load carries one component and
 * not the feature's whole index, which the router loads on demand).
 */
const importBoundaries = [
  ...features.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: './web/src/features',
    except: [`./${feature}`, ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: `A feature imports another feature only through its index: '@/features/<feature>'.`,
  })),
  {
    target: ['./web/src/components', './web/src/lib', './web/src/config'],
    from: ['./web/src/features', './web/src/app'],
    message: 'Shared code (components, lib, config) must not depend on a feature or on the app.',
  },
  {
    target: './web/src/features',
    from: './web/src/app',
    message: 'A feature must not depend on the app: the app composes the features.',
  },
];

export default tseslint.config(
  { ignores: ['web/dist/**'] },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: importBoundaries }],
    },
  },
);
