// Types of scripts/build.mjs for the TypeScript that imports it (tests, bench).
export const ROOT: string;
export const CLIENT_DIR: string;
export const SERVER_DIR: string;
export const SERVER_ENTRY: string;
export function inputsHash(inputs: string[], root?: string): string;
export function webInputsHash(): string;
export function serverInputsHash(): string;
export function webBuildReason(hash?: string): string | null;
export function buildWeb(
  hash?: string,
  options?: { precompress?: boolean },
): { child: import("node:child_process").ChildProcess; done: Promise<number> };
export function serverBuildReason(hash?: string): string | null;
export function buildServer(hash?: string): Promise<void>;
export function ensureServerBuild(options?: {
  force?: boolean;
}): Promise<{ built: false } | { built: true; reason: string; seconds: number }>;
export function needsPrecompression(hash?: string): boolean;
export function precompressClient(dir?: string): Promise<void>;
export function precompressInBackground(hash?: string): import("node:child_process").ChildProcess;
