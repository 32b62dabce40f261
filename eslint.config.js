// ESLint for the web app: the import boundaries of bulletproof-react, and typescript-eslint's recommended rules.
import tseslint from 'typescript-eslint';

/**
 * Imports go one way: shared (components, lib, config) → features → app. A feature reaches another only
 * through its public index ('@/features/<feature>'), never into its files, and never climbs out of its own
 * folder with a relative path. The app composes the features and may import a feature's module directly
 * (the home pages do, so that the first load carries one component and not the feature's whole index,
 * which the router loads on demand).
 *
 * ESLint's own no-restricted-imports is enough for these rules (no resolver needed): a file `depth`
 * folders below its feature's folder leaves the feature with `depth` times '../'.
 */
const deepFeatureImport = {
  regex: '^@/features/[^/]+/',
  message: "A feature imports another feature only through its index: '@/features/<feature>'.",
};
const appImport = {
  regex: '^(@/app|(\\.\\./)+app)(/|$)',
  message: 'A feature must not depend on the app: the app composes the features.',
};
const leavesFeature = (depth) => ({
  regex: `^(\\.\\./){${depth}}`,
  message: "Another feature is reached through its index ('@/features/<feature>'), not with a relative path.",
});
const featureBoundaries = [1, 2, 3, 4].map((depth) => ({
  files: [`web/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
  rules: { 'no-restricted-imports': ['error', { patterns: [deepFeatureImport, appImport, leavesFeature(depth)] }] },
}));
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
