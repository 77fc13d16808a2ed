import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The package root (the nearest ancestor of this file holding package.json): where `data/`,
 * `assets/` and package.json live, whether the code runs from `src/` (jest), `dist/` or a
 * tools build (`dist-tools/src/…`).
 * @throws {Error} No package.json above this file (a broken install).
 */
export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

/** A path inside the package root. */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}
