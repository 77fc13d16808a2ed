import type { HarnessSpec } from '../spec/harness-spec.schema';
import { toolsFor } from '../tools/harness-tool';
import type { HarnessTool } from '../tools/harness-tool';
import type { InstructionFile } from './workspace.inspector';

/** What one run of a spec works with, derived once per run segment. */
export interface RunSettings {
  spec: HarnessSpec;
  /** Absolute path. */
  workingDir: string;
  /** System prompt: agent prompt, working directory, instruction files. */
  system: string;
  /** Tools offered to the model (policy and agent applied). */
  tools: HarnessTool[];
  /** Model calls allowed per run (agent's, else `model_policy.max_iterations`). */
  maxIterations: number;
  /** `limits.task_timeout_seconds` in ms, per run segment. */
  timeoutMs: number;
  temperature: number | undefined;
}

/** System prompt of a spec without an agent prompt of its own. */
export function defaultSystemPrompt(spec: HarnessSpec, tools: HarnessTool[]): string {
  if (tools.length === 0) {
    return 'You are SuperQode, a helpful assistant. Answer the request directly; no tools are available.';
  }
  return (
    'You are SuperQode, a coding agent. Work in the working directory below using the tools ' +
    `offered (${tools.map((t) => t.name).join(', ')}); paths are relative to it. A refused ` +
    'tool call is final: do not retry it, find another way or explain what you could not do. ' +
    `When the task is done, reply with a short summary of what you did. Harness: ${spec.name}.`
  );
}

/**
 * The system prompt: the agent's (or the default) prompt, the working directory, then each
 * instruction file under a `# Instructions from <file>` heading.
 */
export function systemPrompt(base: string, workingDir: string, files: InstructionFile[]): string {
  const parts = [base, `Working directory: ${workingDir}`];
  for (const f of files) parts.push(`# Instructions from ${f.file}\n\n${f.text.trim()}`);
  return parts.join('\n\n');
}

/**
 * Settings of a run of `spec` in `workingDir`; the first agent of `spec.agents` (if any)
 * supplies the system prompt, the tool narrowing and the iteration cap.
 * @param instructions - Instruction files found in the working directory.
 */
export function runSettings(
  spec: HarnessSpec,
  workingDir: string,
  instructions: InstructionFile[],
): RunSettings {
  const agent = spec.agents[0];
  const tools = toolsFor(spec, agent?.id);
  const base = agent?.system_prompt ?? defaultSystemPrompt(spec, tools);
  return {
    spec,
    workingDir,
    system: systemPrompt(base, workingDir, instructions),
    tools,
    maxIterations: agent?.max_iterations ?? spec.model_policy.max_iterations,
    timeoutMs: spec.limits.task_timeout_seconds * 1000,
    temperature: spec.model_policy.temperature,
  };
}
