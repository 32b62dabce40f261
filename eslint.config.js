// ESLint for the web app: the import boundaries of bulletproof-react, and typescript-eslint's recommended rules.
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * Imports go one way: shared (components, lib, config) → features → app. A feature never imports another
 * feature (bulletproof-react): a page that brings features together lives in web/src/app/routes/, and what
 * several features use lives in web/src/components or web/src/lib. The app composes the features and may
 * import a feature's module directly (the home pages do, so that the first load carries one component and
 * not the feature's whole index, which the router loads on demand).
 *
 * ESLint's own no-restricted-imports is enough for these rules (no resolver needed): a file `depth`
 * folders below its feature's folder leaves the feature with `depth` times '../'.
 * test/unit/dependencies.test.ts checks the same rule on the resolved import graph (dependency-cruiser).
 */
const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const otherFeature = (feature) => ({
  regex: `^@/features/(?!${feature}/)`,
  message:
    'A feature never imports another feature: the page that combines them belongs in web/src/app/routes/, a shared piece in web/src/components or web/src/lib.',
});
const appImport = {
  regex: '^(@/app|(\\.\\./)+app)(/|$)',
  message: 'A feature must not depend on the app: the app composes the features.',
};
const leavesFeature = (depth) => ({
  regex: `^(\\.\\./){${depth}}`,
  message: 'A feature never climbs out of its own folder: another feature is not imported at all.',
});
const featureBoundaries = features.flatMap((feature) =>
  [1, 2, 3, 4].map((depth) => ({
    files: [`web/src/features/${feature}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [otherFeature(feature), appImport, leavesFeature(depth)] }],
    },
  })),
);
const sharedBoundaries = {
  files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}', 'web/src/config/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(@/|(\\.\\./)+)(features|app)(/|$)',
            message: 'Shared code (components, lib, config) must not depend on a feature or on the app.',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['web/dist/**'] },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  ...featureBoundaries,
  sharedBoundaries,
);
