import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// What both CLIs (`ariadne run`, `ariadne suite`) share: how a command line that does not
// parse or asks for --help is answered, and the one HTTP helper they talk to a server with.

/**
 * Run a command-line parse (node:util parseArgs). A line that does not parse prints the
 * error and the usage, `--help` prints the usage: then the exit code comes back instead
 * of the parse (2, 0).
 */
export function parseCommandLine<T extends { values: object }>(parse: () => T, usage: string): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return 0;
  }
  return parsed;
}

export interface Api {
  base: string;
  token?: string;
}

/** A JSON request; the body comes back parsed when it is JSON, and always as text. */
export async function call(api: Api, method: string, p: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(api.base + p, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(api.token ? { authorization: `Bearer ${api.token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON (JUnit, spec) */
  }
  return { status: res.status, body: parsed, text };
}

/** An Ariadne started in this process (embedded Redis in a temp dir), for a command without --server. */
export async function localServer(): Promise<{ api: Api; stop: () => Promise<void> }> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'ariadne-cli-'));
  // Loaded at run time: the server depends on this package, not the other way round.
  const server = (await import('@ariadne/server' as string)) as {
    loadConfig(env: Record<string, string | undefined>): unknown;
    startService(config: unknown): Promise<{ url: string; close(): Promise<void> }>;
  };
  const config = server.loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', STATE_DIR: stateDir, REDIS_URL: '', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', API_KEYS: '', API_KEYS_FILE: '' });
  const svc = await server.startService(config);
  return {
    api: { base: svc.url.replace('[::1]', '127.0.0.1') },
    stop: async () => {
      await svc.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

