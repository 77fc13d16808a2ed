import { parseConstraints, wholeWord } from './request-constraints';

describe(parseConstraints.name, () => {
  it('reads "open source harness with local models via ollama"', () => {
    const c = parseConstraints('open source harness with local models via ollama');
    expect(c.openSource).toBe(true);
    expect(c.localModels).toBe(true);
    expect(c.understood).toEqual(['open source', 'local models']);
    expect(c.includeSupplied).toBe(false);
  });

  it('returns nothing for an empty request', () => {
    const c = parseConstraints('');
    expect(c).toEqual({
      openSource: false,
      licenses: [],
      localModels: false,
      sandbox: false,
      approvals: false,
      shell: false,
      network: false,
      languages: [],
      editors: [],
      acp: false,
      terminal: false,
      includeSupplied: false,
      understood: [],
    });
  });

  it.each(['OSS', 'foss please', 'Open-Source', 'free software', 'opensource'])(
    'recognises open-source wording %p case-insensitively',
    (text) => expect(parseConstraints(text).openSource).toBe(true),
  );

  it('matches whole words only: "across", "gross" and "boss" are not "oss"', () => {
    expect(parseConstraints('works across teams, gross margin, ask the boss').openSource).toBe(
      false,
    );
  });

  it('reads "javascript" as JavaScript, not Java', () => {
    expect(parseConstraints('a JavaScript project').languages).toEqual(['javascript']);
  });

  it('reads "java" on its own as Java', () => {
    expect(parseConstraints('our Java monolith').languages).toEqual(['java']);
  });

  it('does not read "gopher" or "google" as Go, but reads "Go" and "golang"', () => {
    expect(parseConstraints('gopher google').languages).toEqual([]);
    expect(parseConstraints('written in Go').languages).toEqual(['go']);
    expect(parseConstraints('golang services').languages).toEqual(['go']);
  });

  it('reads several languages, in rule order', () => {
    const c = parseConstraints('Rust, TypeScript and python');
    expect(c.languages).toEqual(['python', 'typescript', 'rust']);
    expect(c.understood).toEqual(['Python', 'TypeScript', 'Rust']);
  });

  it('reads licence families: MIT, Apache 2.0, GPLv3', () => {
    expect(parseConstraints('MIT or Apache 2.0 or GPLv3').licenses).toEqual([
      'MIT',
      'Apache',
      'GPL',
    ]);
    expect(parseConstraints('apache-2.0 licensed').licenses).toEqual(['Apache']);
  });

  it('does not read AGPL or LGPL as GPL', () => {
    expect(parseConstraints('AGPL-3.0').licenses).toEqual(['AGPL']);
    expect(parseConstraints('LGPL').licenses).toEqual(['LGPL']);
  });

  it('does not read "submit" or "permit" as MIT', () => {
    expect(parseConstraints('submit a permit').licenses).toEqual([]);
  });

  it.each(['llama.cpp', 'LM Studio', 'offline', 'a self-hosted model', 'local LLMs', 'Ollama'])(
    'reads %p as local models',
    (text) => expect(parseConstraints(text).localModels).toBe(true),
  );

  it('does not read "local" on its own as local models', () => {
    expect(parseConstraints('a local sandbox').localModels).toBe(false);
  });

  it('reads policy topics: sandbox, approvals, shell, network', () => {
    const c = parseConstraints('sandboxed, asks for approval, bash allowed, no internet');
    expect([c.sandbox, c.approvals, c.shell, c.network]).toEqual([true, true, true, true]);
    expect(c.understood).toEqual(['sandboxing', 'approvals', 'shell access', 'network access']);
  });

  it('reads editors; "neovim" is Neovim, not Vim', () => {
    expect(parseConstraints('NeoVim user').editors).toEqual(['neovim']);
    expect(parseConstraints('VS Code or JetBrains IDE').editors).toEqual([
      'vscode',
      'jetbrains',
      'ide',
    ]);
    expect(parseConstraints('inside Zed editor').editors).toEqual(['zed', 'editor']);
  });

  it('does not read "side", "glazed" or "video" as IDE, Zed or editor words', () => {
    expect(parseConstraints('side glazed video').editors).toEqual([]);
  });

  it('reads ACP and the Agent Client Protocol, but not "capacity"', () => {
    expect(parseConstraints('speaks ACP').acp).toBe(true);
    expect(parseConstraints('agent client protocol').acp).toBe(true);
    expect(parseConstraints('capacity').acp).toBe(false);
  });

  it('reads terminal / CLI wording, but not "client"', () => {
    expect(parseConstraints('a CLI tool').terminal).toBe(true);
    expect(parseConstraints('command-line agent').terminal).toBe(true);
    expect(parseConstraints('in my terminal').terminal).toBe(true);
    expect(parseConstraints('client library').terminal).toBe(false);
  });

  it.each(['SuperQode harnesses', 'a built-in one', 'builtin', 'the native harness'])(
    'reads %p as asking for SuperQode-supplied harnesses',
    (text) => expect(parseConstraints(text).includeSupplied).toBe(true),
  );

  it('does not read "alternative" as native', () => {
    expect(parseConstraints('an alternative').includeSupplied).toBe(false);
  });
});

describe(wholeWord.name, () => {
  it('treats hyphens and dots as word boundaries', () => {
    expect(wholeWord('cli').test('grok-cli')).toBe(true);
    expect(wholeWord('cli').test('clip')).toBe(false);
    expect(wholeWord('python').test('via Python RPC')).toBe(true);
  });
});
