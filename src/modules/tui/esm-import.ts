/**
 * `import()` kept as a real dynamic import in the CommonJS build. TypeScript with
 * `module: commonjs` rewrites `import()` to `require()`, which cannot load an ESM package with
 * top-level await (ink's `yoga-layout`); a function built at run time keeps the native import.
 * Under jest (no `--experimental-vm-modules`) this rejects, so specs test the screen's logic
 * (`tui-session.ts`, `reply-stream.ts`), and the tmux e2e suite drives the built `dist/cli.js`.
 * @param specifier - Package name, e.g. `ink`.
 */
export const importEsm = new Function('specifier', 'return import(specifier)') as <T>(
  specifier: string,
) => Promise<T>;
