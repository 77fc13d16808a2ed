import { type BwrapPlan, bwrapArgs, prlimitArgv, SANDBOX_UID } from './bwrap-args';

const plan = (over: Partial<BwrapPlan> = {}): BwrapPlan => ({
  workingDir: '/work/repo',
  allowNetwork: false,
  system: [{ path: '/usr' }, { path: '/bin', symlinkTarget: 'usr/bin' }],
  etc: ['/etc/passwd', '/etc/resolv.conf'],
  masked: [
    { path: '/work/repo/.superqode', kind: 'dir' },
    { path: '/work/repo/tasks.sqlite3', kind: 'file' },
  ],
  limits: { processes: 64, addressSpaceBytes: 1 << 30, fileBytes: 1 << 20, cpuSeconds: 30 },
  ...over,
});

/** The values that follow each occurrence of `flag`. */
function after(args: string[], flag: string, count = 1): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + count)] : []));
}

describe(bwrapArgs.name, () => {
  const args = bwrapArgs(plan(), ['/bin/bash', '-c', 'echo hi']);

  it('unshares user, pid, ipc, uts and network and runs as a non-root uid', () => {
    for (const flag of [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
    ]) {
      expect(args).toContain(flag);
    }
    expect(after(args, '--uid')).toEqual([[String(SANDBOX_UID)]]);
    expect(after(args, '--gid')).toEqual([[String(SANDBOX_UID)]]);
    expect(SANDBOX_UID).not.toBe(0);
    expect(args).toEqual(expect.arrayContaining(['--die-with-parent', '--new-session']));
    expect(after(args, '--cap-drop')).toEqual([['ALL']]);
  });

  it('keeps the network only with allowNetwork', () => {
    expect(bwrapArgs(plan({ allowNetwork: true }), ['true'])).not.toContain('--unshare-net');
  });

  it('mounts system directories read-only, symlinks as symlinks, and the /etc subset', () => {
    expect(after(args, '--ro-bind', 2)).toEqual(
      expect.arrayContaining([
        ['/usr', '/usr'],
        ['/etc/passwd', '/etc/passwd'],
        ['/etc/resolv.conf', '/etc/resolv.conf'],
      ]),
    );
    expect(after(args, '--symlink', 2)).toEqual([['usr/bin', '/bin']]);
  });

  it('binds the working directory as the only writable mount, after a private /proc and /tmp', () => {
    expect(after(args, '--bind', 2)).toEqual([['/work/repo', '/work/repo']]);
    expect(after(args, '--proc')).toEqual([['/proc']]);
    expect(after(args, '--dev')).toEqual([['/dev']]);
    expect(args.indexOf('--tmpfs')).toBeLessThan(args.indexOf('--bind'));
    expect(after(args, '--remount-ro')).toEqual([['/']]);
    expect(after(args, '--chdir')).toEqual([['/work/repo']]);
  });

  it('masks the state directory with a tmpfs and store files with /dev/null, after the bind', () => {
    const tmpfs = after(args, '--tmpfs').map(([p]) => p);
    expect(tmpfs).toEqual(['/tmp', '/work/repo/.superqode']);
    expect(after(args, '--ro-bind', 2)).toContainEqual(['/dev/null', '/work/repo/tasks.sqlite3']);
    expect(args.lastIndexOf('/work/repo/.superqode')).toBeGreaterThan(args.indexOf('--bind'));
  });

  it('ends with the command under prlimit', () => {
    const tail = args.slice(args.indexOf('--') + 1);
    expect(tail).toEqual(prlimitArgv(plan().limits, ['/bin/bash', '-c', 'echo hi']));
    expect(tail).toEqual([
      '/usr/bin/prlimit',
      '--nproc=64',
      `--as=${1 << 30}`,
      `--fsize=${1 << 20}`,
      '--cpu=30',
      '--',
      '/bin/bash',
      '-c',
      'echo hi',
    ]);
  });
});
