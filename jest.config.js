/**
 * Unit specs beside their files (src/**\/*.spec.ts) and e2e suites (test/e2e).
 * @swc/jest transpiles only (types are checked by `npm run typecheck`), with the semantics of
 * tsconfig.json: ES2022, legacy decorators with emitted metadata (Nest's DI reads
 * `design:paramtypes`), define-semantics class fields, CommonJS. `jose` and `oauth4webapi`,
 * ESM-only dependencies, are transpiled to CommonJS for jest's runtime.
 * Why swc and not ts-jest (issue #13): jest's cache starts empty on every CI run, and ts-jest's
 * transpile of the app (~700 files, again in each worker) cost the e2e project ~45 CPU-s and
 * ~25 s of wall time cold; swc transpiles the same files in a fraction of that.
 */
const { availableParallelism } = require('node:os');

/** swc options equivalent to tsconfig.json's emit for one source syntax. */
function swcOptions(syntax) {
  return {
    swcrc: false,
    jsc: {
      parser: syntax === 'typescript' ? { syntax, decorators: true } : { syntax },
      target: 'es2022',
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    },
    module: { type: 'commonjs' },
  };
}

const common = {
  testEnvironment: 'node',
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions('typescript')],
    '^.+\\.js$': ['@swc/jest', swcOptions('ecmascript')],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi)/)'],
};
module.exports = {
  // At least 3 workers (issue #13): most e2e suites wait on child processes, sockets and timers,
  // so jest's default (cores - 1: one worker, run in band, on a 2-core machine) leaves a core idle.
  // `--maxWorkers` / `-i` on the command line still win.
  maxWorkers: Math.max(3, availableParallelism() - 1),
  // The longest e2e group files first, also with a cold cache (test/utils/e2e-sequencer.js).
  testSequencer: '<rootDir>/test/utils/e2e-sequencer.js',
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // Controller tier: the real app on Fastify via inject(), no socket (test/utils/inject-app.ts).
    { ...common, displayName: 'controller', testMatch: ['<rootDir>/test/controller/**/*.controller-spec.ts'] },
    // 60 s: with suites side by side a loaded machine stretches process starts (no test asserts on time).
    // Group files (test/e2e/groups) each run several suites (test/e2e/*.e2e.ts) with one app load
    // (test/utils/e2e-suites.ts, issue #13); `--testMatch '**/test/e2e/NAME.e2e.ts'` runs one suite.
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], testTimeout: 60000 },
  ],
};
