import { readFile } from 'node:fs/promises';
import { Language, type Node, Parser } from 'web-tree-sitter';

export type { Node as ShellNode } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;

async function load(): Promise<Parser> {
  await Parser.init();
  // Bytes rather than a path: given a path, web-tree-sitter imports `fs` dynamically, which
  // jest's CommonJS runtime cannot do.
  const wasm = await readFile(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const bash = await Language.load(wasm);
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/**
 * Parses a bash command line with tree-sitter-bash (the grammar GitHub and editors use,
 * compiled to WebAssembly and run by web-tree-sitter). The grammar is loaded once per process
 * (about 70 ms); a parse then takes well under a millisecond.
 * @param line - The command line as given to `bash -c`.
 * @param read - Reads the syntax tree's root; the tree is freed when it returns.
 * @returns What `read` returns.
 * @see https://github.com/tree-sitter/tree-sitter-bash
 */
export async function withShellSyntax<T>(line: string, read: (root: Node) => T): Promise<T> {
  loading ??= load();
  const parser = await loading;
  const tree = parser.parse(line);
  if (!tree) throw new Error('the shell parser returned no syntax tree');
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
