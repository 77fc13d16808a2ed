import { readFileSync } from 'node:fs';
import { packagePath } from '../../common/runtime/package-root';

/** This package's version from package.json (repo root; same relative path from src/ and dist/). */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }
).version;
