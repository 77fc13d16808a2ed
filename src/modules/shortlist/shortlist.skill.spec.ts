import type { ShortlistSettings } from '../../config/namespaces';
import { Clock, IdGenerator } from '../../common/runtime/clock';
import { CatalogueService } from './catalogue.service';
import { ShortlistRequestReader } from './shortlist-request-reader';
import { ShortlistService } from './shortlist.service';
import { ShortlistSkill } from './shortlist.skill';

/** Questions about choosing or comparing coding agents/harnesses: the shortlist answers them. */
const QUESTIONS = [
  'what coding agent should I use?',
  'which agent supports ollama',
  'I need a harness for Python with approvals',
  'compare claude code and codex',
  'which harness fits a Rust project?',
  'recommend a coding agent for TypeScript',
  "what's the best coding agent for Go?",
  'which harness is open source and works with ollama?',
  'which harness works as an ACP agent in zed?',
  'shortlist MIT licensed agents for python',
  'can you suggest an open source coding assistant?',
  'is there a coding agent that runs in the terminal?',
  'what are some alternatives to Cursor?',
  'open source alternative to claude code',
  'claude code vs goose',
  'codex or gemini cli: which is better?',
  "I'm looking for a coding agent that works with local models",
  'which AI coding tools support ACP?',
  'what harness should I pick for a Java monorepo?',
  'help me choose a coding agent',
  'which coding agents have a sandbox?',
  'any recommendations for a CLI coding agent?',
  'what is the difference between codex and claude code?',
  'which agents work in Zed?',
  'what coding assistant works with neovim?',
  'is goose better than codex?',
  'list coding agents with an Apache license',
  'which harnesses are MIT licensed?',
  'I want an agent that can run offline with ollama',
  'recommend me some harnesses',
  'best harness for a Python data science project',
  'what agent would you recommend for Rust?',
  'suggest a terminal coding agent with approvals',
  'which coding agent is right for me?',
  'Which harness has network access blocked?',
  "what's a good open-source coding agent?",
  'compare coding agents for JavaScript',
  'how does opencode compare to claude code?',
  'should I use codex or claude code?',
  'which agent harness supports shell approvals?',
  'are there any free coding agents that work with ollama?',
  'what are the top coding agents?',
  'find me a harness that works in VS Code',
  'Which harness should I use for an open source project with local models?',
];

/** Instructions about the code in the checkout: the harness runs them. */
const INSTRUCTIONS = [
  'Fix the failing test in src/parser.ts',
  'Explain what src/main.ts does',
  'Add a --verbose flag to the CLI and update the README',
  'Which file defines the agent card?',
  'Refactor the harness skill to use the router',
  'Why does the shortlist test fail?',
  'Run the tests and fix what breaks',
  'Rename the agent executor class to SkillExecutor',
  'Compare the two implementations in src/a.ts and src/b.ts',
  'Write a unit test for the skill router',
  'What does the harness spec loader do?',
  'Add approvals to the bash tool',
  'Update the Codex adapter to the new API',
  'Which function calls the harness?',
  'List the files in the src directory',
  'Remove the unused imports in src/app.module.ts',
  'Implement pagination for ListTasks',
  'Find where the agent card is built',
  'Make the harness run loop handle timeouts',
  "Document the agent's configuration options in README.md",
  'Debug why the server crashes on start',
  'Change the default port to 9000',
  'Review my last commit',
  'Create a Dockerfile for this project',
  'Bump the version in package.json',
  'What is this repository about?',
  'Delete the temporary files',
  'Summarise the changes in the diff',
  'Which tests cover the rate limiter?',
  'Migrate the config to zod 4',
  'Add a Rust example to the examples folder',
  'Convert the Python script to TypeScript',
  'How is the harness ledger stored?',
  'Make the coding agent prompt shorter',
  'Write a README section about the agent card',
  'Check whether the tests pass with ollama as the provider',
  'Add support for Zed in the editor rules',
  'Optimise the shortlist ranking function',
  'Print the harness spec for read-only',
  'Read package.json and tell me the dependencies',
  'Fix the typo in the agent card description',
  'Replace console.log with the Nest logger',
  'Explain the difference between the two harness templates',
  'Add a test that the claude code entry is ranked first',
  'explain the shortlisted items',
  'which file has the bug?',
  'What does the agent executor do when a skill throws?',
  'Where is the harness session bound to its caller?',
];

describe('ShortlistSkill phrase routing (issue #11.14)', () => {
  const skill = new ShortlistSkill(
    new ShortlistService(new CatalogueService()),
    {} as ShortlistSettings,
    {} as Clock,
    {} as IdGenerator,
    {} as ShortlistRequestReader,
  );

  it('the tables hold at least 40 phrasings each way', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(40);
    expect(INSTRUCTIONS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(QUESTIONS)('claims the question "%s"', (text) =>
    expect(skill.matchesText(text)).toBe(true),
  );

  it.each(INSTRUCTIONS)('leaves the instruction "%s" to the harness', (text) =>
    expect(skill.matchesText(text)).toBe(false),
  );

  it('every card example is claimed by the phrase match (so it reaches this skill when the harness is served too)', () => {
    for (const example of skill.card().examples) expect(skill.matchesText(example)).toBe(true);
  });
});
