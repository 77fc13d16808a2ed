/**
 * A seeded generator of bash command lines for the checker's differential test
 * (`bash-command-line.differential.spec.ts`): plain commands and hostile constructs (escaped
 * operators, substitutions in every position, launchers, here-docs, odd quoting), combined
 * structurally and, for a share of lines, as token soup. Test support only.
 */

/** Programs the test shims and allows (wrappers among them really launch their arguments). */
export const ALLOWED_SHIMS = ['echo', 'ls', 'cat', 'git', 'grep', 'wc', 'env', 'nohup', 'timeout'];

/** Programs the test shims but never allows: running one through the checker is a bypass. */
export const FORBIDDEN_SHIMS = ['rm', 'id', 'curl', 'touch', 'bash', 'sh', 'evil', 'xargs', 'sed'];

const NAMES = [...ALLOWED_SHIMS, ...ALLOWED_SHIMS, ...FORBIDDEN_SHIMS]
  .concat(['eval', 'exec', 'command', 'source', '.', 'time', 'export', 'read', 'printf'])
  .concat(['test', 'let', 'declare', 'find', 'trap', 'builtin', 'coproc', 'true', 'cd'])
  .concat(['hash', 'getopts', 'wait']);

const OBFUSCATIONS: ((name: string) => string)[] = [
  (n) => n,
  (n) => n,
  (n) => n,
  (n) => `'${n}'`,
  (n) => `"${n}"`,
  (n) => `\\${n}`,
  (n) => (n.length > 1 ? `${n[0]}"${n.slice(1)}"` : n),
  (n) => (n.length > 1 ? `${n[0]}\\${n.slice(1)}` : n),
  (n) => `./${n}`,
  (n) => `$'${n}'`,
];

const SAFE_ARGS = [
  'x',
  'héllo😀',
  '-la',
  'a.txt',
  '.',
  '--',
  'status',
  '*',
  '*.ts',
  '~',
  '{a,b}',
  'a#b',
].concat(['-n', '"a b"', "'c d'", '$x', '${x}', '"$x"', '$(echo a)', '`ls`', '"$(ls)"', 'id']);

const HOSTILE_ARGS = [
  '-v',
  '\\>&',
  '\\;',
  '\\|',
  '\\&',
  '\\',
  '"$(id)"',
  '`id`',
  '$(rm x)',
  "'$(id)'",
  '"\\$(id)"',
]
  .concat(['"\\\\$(id)"', '<(id)', '>(touch y)', '$((1))', '${x:-$(id)}', "'a[$(id)]'", '#', '#x'])
  .concat(["$'\\x3bid'", "$'\\''", `"a'b"`, '-exec', 'id', '{}', "';'", '-eq', 'x=1', 'PATH=.'])
  .concat(['$?', '-c', "'id'", '"id"', '$PWD', '!', '$(echo id)', 'a\\ b', '$(id', '"$(id'])
  .concat(['$(', ')', '(', '"', "'", '`', '{', '}']);

const SEPARATORS = [';', ' ; ', ' && ', ' || ', ' | ', ' & ', '\n', ' |& ', '&', '&&', '|'];

const REDIRECTS = [
  '>f',
  '2>&1',
  '&>f',
  '<a.txt',
  '>>f',
  '<<<x',
  '<<<$(id)',
  '>&2',
  '>$(id)',
].concat(['<<EOF\nid\nEOF\n', '<<-E\n\tid\nE\n', '2>/dev/null', '>|f', '<<< "$(id)"', '3>&-']);

/** mulberry32: a small seeded PRNG, so a failing line reproduces from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generates lines from one seed. */
export class CommandLineGrammar {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = prng(seed);
  }

  /** One command line: structured most of the time, token soup otherwise. */
  line(): string {
    return this.random() < 0.8 ? this.list(0) : this.soup();
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private list(depth: number): string {
    let line = this.statement(depth);
    while (this.chance(0.35)) line += this.pick(SEPARATORS) + this.statement(depth);
    return line;
  }

  private statement(depth: number): string {
    if (depth < 2 && this.chance(0.25)) return this.compound(depth + 1);
    return this.simple(depth);
  }

  private compound(depth: number): string {
    const inner = () => this.list(depth);
    const forms = [
      () => `(${inner()})`,
      () => `{ ${inner()}; }`,
      () => `echo $(${inner()})`,
      () => `echo \`${this.simple(depth)}\``,
      () => `! ${this.simple(depth)}`,
      () => `x=$(${inner()})`,
      () => `FOO=1 ${this.simple(depth)}`,
      () => `if ${inner()}; then ${inner()}; fi`,
      () => `f() { ${inner()}; }; f`,
      () => `eval '${this.simple(depth)}'`,
      () => `echo \\>& ${this.simple(depth)}`,
      () => `echo a \\;${this.simple(depth)}`,
      () => `bash -c '${this.simple(depth)}'`,
      () => `env A=1 ${this.simple(depth)}`,
      () => `nohup ${this.simple(depth)}`,
      () => `timeout 5 ${this.simple(depth)}`,
      () => `for i in a; do ${inner()}; done`,
      () => `echo "${this.pick(['a', '$(id)', '`id`', '$x', '\\$(id)'])}"`,
    ];
    return this.pick(forms)();
  }

  private simple(depth: number): string {
    const name = this.chance(0.6) ? this.pick(ALLOWED_SHIMS) : this.pick(NAMES);
    const words = [this.chance(0.7) ? name : this.pick(OBFUSCATIONS)(name)];
    while (this.chance(0.5)) words.push(this.argument(depth));
    if (this.chance(0.15)) words.push(this.pick(REDIRECTS));
    return words.join(this.chance(0.95) ? ' ' : '');
  }

  private argument(depth: number): string {
    const roll = this.random();
    if (roll < 0.7) return this.pick(SAFE_ARGS);
    if (roll < 0.92) return this.pick(HOSTILE_ARGS);
    return this.nested(depth);
  }

  private nested(depth: number): string {
    return depth < 2 ? `$(${this.simple(depth + 1)})` : 'x';
  }

  private soup(): string {
    const pools = [NAMES, SAFE_ARGS, HOSTILE_ARGS, SEPARATORS, REDIRECTS];
    const parts: string[] = [];
    const count = 2 + Math.floor(this.random() * 6);
    for (let i = 0; i < count; i++) parts.push(this.pick(this.pick(pools)));
    return parts.join(this.chance(0.5) ? ' ' : '');
  }
}
