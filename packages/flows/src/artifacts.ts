import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactSink } from './tools.js';

// Screenshots and traces of a run, as files in one directory per run. Names are made
// by the loop (c1-s3.jpg, c1-default-trace.zip), never by the caller.

export const SAFE_ARTIFACT = /^[A-Za-z0-9][\w.-]{0,127}$/;

export class DiskArtifacts implements ArtifactSink {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  async put(name: string, data: Buffer): Promise<string> {
    if (!SAFE_ARTIFACT.test(name)) throw new Error(`bad artifact name ${name}`);
    await writeFile(path.join(this.dir, name), data);
    return name;
  }

  tracePath(name: string): string {
    if (!SAFE_ARTIFACT.test(name)) throw new Error(`bad artifact name ${name}`);
    return path.join(this.dir, name);
  }
}
