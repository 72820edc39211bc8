/**
 * Guards the direction of dependencies between workspaces (see shared STYLE.md, "Guard the
 * direction"): core imports no workspace package; adapters and the testkit import only core;
 * only apps import adapters. Run with `npm run check:deps`.
 *
 * Workspace imports resolve through the `@strata/source` export condition to TypeScript
 * sources, so a rule's `to.path` sees `packages/<name>/src/...`. An import that does not
 * resolve keeps its bare name as path, which is why each rule also names `@strata/...`.
 *
 * One run-time exception, by design: `createMemory({ store: 'postgres://...' })` loads the store
 * adapter its URL names with a computed `import(name)` (packages/core/src/store-url.ts),
 * the adapters being optional peers of core. That is not a build dependency and the graph
 * here does not show it; core's code never names an adapter's modules.
 *
 * Every package under packages/ other than core and testkit counts as an adapter
 * (store-sqlite, kb-chroma, worker, ...), so a new adapter is guarded without editing this.
 */

/** Workspace paths and bare workspace names (the latter for imports that did not resolve). */
const WORKSPACE = '^(packages|apps)/|^@strata/';
/** Test files of a package: adapters run testkit's contract suites there. */
const TEST_FILES = '(^|/)test/|\\.test\\.ts$';

/**
 * The layers of core's sources, lowest first (packages/core/src/README.md): a module imports
 * only its own layer and the layers before it. Layers in one entry are siblings, neither
 * importing the other: engine (pure decisions) and models (offline models). `root` is the
 * files directly in src/ (createMemory, its options, the store URL opener, index.ts).
 * Colocated tests (`*.test.ts`) are left out: a test may use any layer.
 */
const CORE_LAYERS = [['errors'], ['domain'], ['ports'], ['shared'], ['config'], ['lexical'], ['engine', 'models'], ['services'], ['adapters'], ['root']];
const CORE_SRC = '^packages/core/src/';
const coreLayerPath = (layer) => (layer === 'root' ? `${CORE_SRC}[^/]+$` : `${CORE_SRC}${layer}/`);

/** One rule per pair, `core-<lower>-not-<higher>`, so that a violation names both layers. */
const coreLayerRules = CORE_LAYERS.flatMap((group, index) =>
  group.flatMap((lower) =>
    [...group.filter((sibling) => sibling !== lower), ...CORE_LAYERS.slice(index + 1).flat()].map((higher) => ({
      name: `core-${lower}-not-${higher}`,
      severity: 'error',
      comment: `Core's layers, lowest first: ${CORE_LAYERS.map((layers) => layers.join(' | ')).join(', ')}. ${lower} may not import ${higher}: move what both need to a layer both may import.`,
      from: { path: coreLayerPath(lower), pathNot: '\\.test\\.ts$' },
      to: { path: coreLayerPath(higher) },
    })),
  ),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-workspace',
      severity: 'error',
      comment: 'Core is pure: it imports no other workspace package (no @strata/*, nothing in packages/ but core, nothing in apps/).',
      from: { path: '^packages/core/src/' },
      to: { path: WORKSPACE, pathNot: '^packages/core/src/' },
    },
    {
      name: 'core-imports-not-itself-by-name',
      severity: 'error',
      comment: 'Inside core, import core modules relatively; "@strata/core" from core is a self-cycle through index.ts.',
      from: { path: '^packages/core/src/' },
      to: { path: '^packages/core/src/', dependencyTypesNot: ['local'] },
    },
    {
      name: 'adapters-import-only-core',
      severity: 'error',
      comment: 'An adapter package imports @strata/core and nothing else of the workspace.',
      from: { path: '^packages/(?!core/|testkit/)([^/]+)/', pathNot: [TEST_FILES, '^packages/client/scripts/'] },
      to: { path: WORKSPACE, pathNot: ['^packages/(core|$1)/', '^@strata/core$'] },
    },
    {
      name: 'adapter-tests-import-only-core-and-testkit',
      severity: 'error',
      comment: "An adapter's tests may add @strata/testkit (the contract suites) to core; nothing else of the workspace.",
      from: { path: ['^packages/(?!core/|testkit/|server/|client/)([^/]+)/.*(/test/|\\.test\\.ts$)'] },
      to: { path: WORKSPACE, pathNot: ['^packages/(core|testkit|$1)/', '^@strata/(core|testkit)$'] },
    },
    {
      name: 'server-tests-import-core-testkit-and-a-store',
      severity: 'error',
      comment: "The server's tests serve a memory on a real store: they may add @strata/store-sqlite to core and the testkit.",
      from: { path: ['^packages/server/.*(/test/|\\.test\\.ts$)'] },
      to: { path: WORKSPACE, pathNot: ['^packages/(core|testkit|server|store-sqlite)/', '^@strata/(core|testkit|store-sqlite)$'] },
    },
    {
      name: 'client-tests-and-scripts-import-what-they-serve',
      severity: 'error',
      comment:
        "The client's tests and its type generator run a real server on a real store, and LangChain over the remote memory: they may add the server, SQLite store and LangChain packages; the client's sources may not (adapters-import-only-core).",
      from: { path: ['^packages/client/(.*(/test/|\\.test\\.ts$)|scripts/)'] },
      to: { path: WORKSPACE, pathNot: ['^packages/(core|testkit|client|server|store-sqlite|langchain)/', '^@strata/(core|testkit|server|store-sqlite|langchain)$'] },
    },
    {
      name: 'testkit-imports-only-core',
      severity: 'error',
      comment: 'The testkit imports @strata/core and nothing else of the workspace.',
      from: { path: '^packages/testkit/' },
      to: { path: WORKSPACE, pathNot: ['^packages/(core|testkit)/', '^@strata/core$'] },
    },
    {
      name: 'packages-import-no-apps',
      severity: 'error',
      comment: 'Libraries never depend on apps; only apps compose packages.',
      from: { path: '^packages/' },
      to: { path: ['^apps/', '^@strata/demo-cli'] },
    },
    {
      name: 'core-no-circular',
      severity: 'error',
      comment: 'No import cycles inside core (type-only imports count: they still tangle the layers).',
      from: { path: '^packages/core/src/' },
      to: { circular: true },
    },
    {
      name: 'no-cross-package-src-internals',
      severity: 'error',
      comment:
        "Reach another package through its name (its exports map), never through its files: no '../../core/src/...'. " +
        'A name import resolves to src/index.ts via the @strata/source condition and is fine.',
      from: { path: '^(packages|apps)/([^/]+)/' },
      to: { path: '^(packages|apps)/[^/]+/', pathNot: '^$1/$2/', dependencyTypes: ['local'] },
    },
    {
      name: 'no-deep-package-imports',
      severity: 'error',
      comment: "Import a workspace package by its name only ('@strata/core'), not a subpath ('@strata/core/src/...').",
      from: {},
      to: { path: '^@strata/[^/]+/.+' },
    },
    ...coreLayerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|coverage|\\.turbo)/' },
    moduleSystems: ['es6', 'cjs'],
    // Count `import type` too: a type-only import of another package is still a dependency.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      // Workspace packages point `@strata/source` at src/index.ts; honour their exports maps.
      exportsFields: ['exports'],
      conditionNames: ['@strata/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
