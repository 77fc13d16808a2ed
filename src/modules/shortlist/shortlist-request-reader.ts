import type { ModelConstraints } from './model-constraints';

/**
 * Seam: reads a shortlist request with a model (implemented by the harness module with the
 * configured provider). Implementations bound the request (800 characters), the answer (512
 * tokens), use temperature 0 and a time limit.
 * @throws {Error} Any failure (no model, timeout, not JSON, wrong shape): the caller falls back to
 *   the keyword parser.
 */
export abstract class ShortlistRequestReader {
  abstract read(text: string): Promise<ModelConstraints>;
}
