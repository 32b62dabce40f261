/**
 * Dependencies one way (design.md §2): the rules test/unit/dependencies.test.ts checks over functions/,
 * web/src and lib/. Run by hand with `npx depcruise functions web/src lib`.
 * Rule format: dependency-cruiser's rules reference (doc/rules-reference.md); `$1` in a `to` repeats the
 * group the `from` path matched.
 */

/** Files outside the project's source (npm packages, Node's own modules) are allowed everywhere. */
const outsideTheProject = ['^node_modules/', '^node:'];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle, type-only imports included (tsPreCompilationDeps): two modules that need each ' +
        'other are one module in two files. Move what both need (a record, a port) to the domain.',
      from: { path: '^(functions|web/src|lib)/' },
      to: { circular: true },
    },
    {
      name: 'no-product-to-local',
      severity: 'error',
      comment:
        'lib/local/ is the local stand-in of the cloud (simulators, demo data, dynalite): product code ' +
        '(functions/, web/src, the CDK in lib/) never depends on it.',
      from: { path: '^(functions|web/src|lib)/', pathNot: '^lib/local/' },
      to: { path: '^lib/local/' },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      comment:
        'A circle between folders of functions/ (issue 36): the folders import one way, domain <- adapters <- ' +
        'resource folders <- entry. A record, schema or port two folders share goes to the domain or ' +
        'adapters/ports/; wiring goes to functions/entry/.',
      scope: 'folder',
      from: { path: '^functions/' },
      to: { path: '^functions/', circular: true },
    },
    {
      name: 'entry-on-top',
      severity: 'error',
      comment:
        "functions/entry/ (each Lambda's entry and its wiring) and the route table functions/routes.ts are the " +
        'top of functions/: no other file of functions/ imports them (so no circle runs through them, which the ' +
        'folder rule, blind to routes.ts beside the folders, would not see).',
      from: { path: '^functions/', pathNot: '^functions/entry/' },
      to: { path: ['^functions/entry/', '^functions/routes[.]ts$'] },
    },
    {
      name: 'adapters-on-the-domain',
      severity: 'error',
      comment:
        'functions/adapters (the clients of AWS and of the outside systems, observability, ports/) imports only the domain and itself.',
      from: { path: '^functions/adapters/' },
      to: { path: '^functions/', pathNot: ['^functions/adapters/', '^functions/domain/'] },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'functions/domain holds the pure rules and schemas: it imports only itself and npm packages.',
      from: { path: '^functions/domain/' },
      to: { pathNot: ['^functions/domain/', ...outsideTheProject], dependencyTypesNot: ['npm', 'core'] },
    },
    {
      name: 'web-feature-alone',
      severity: 'error',
      comment:
        'A web feature never imports another feature, lazily or for a type (bulletproof-react, style.md): a ' +
        'page that brings features together lives in web/src/app/routes/, a piece several features use in ' +
        'web/src/components or web/src/lib.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'repository-reads-its-own-items',
      severity: 'error',
      comment:
        'A repository (DynamoDB only, no rules) imports the domain, the adapters, the shared HTTP helpers and ' +
        "its own resource's files, never another resource's files nor its own use cases: a use case that " +
        'spans two resources calls both repositories (design.md §2).',
      from: { path: '^functions/([^/]+)/repository[^/]*[.]ts$' },
      to: {
        path: '^functions/',
        pathNot: ['^functions/domain/', '^functions/adapters/', '^functions/http/', '^functions/$1/(?!use-cases)'],
      },
    },
  ],
  options: {
    // Type-only imports are dependencies too: they are the coupling a circle is made of.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(functions|web/src|lib)/',
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.js'] },
  },
};
