import { expect } from 'vitest';
import type { TestService } from './service.js';

// Helpers for the surface tests (issue 24): read one element's line in every snapshot format.

export interface Expected {
  role: string;
  name: string;
  from?: string;
  /** Extra marks on the line, e.g. '[type=date]' or '[multiline]'. */
  marks?: string[];
}

export interface Formats {
  yaml: string;
  text: string;
  json: unknown[];
}

export async function snapshots(svc: TestService, id: string): Promise<Formats> {
  const get = async (format: string) => {
    const r = await svc.api.snapshot(id, `format=${format}&maxTokens=40000`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.snapshot;
  };
  const [yaml, text, json] = await Promise.all([get('yaml'), get('text'), get('json')]);
  return { yaml, text, json };
}

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function jsonNodes(nodes: unknown[], out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  for (const n of nodes) {
    if (!n || typeof n !== 'object') continue;
    out.push(n as Record<string, unknown>);
    jsonNodes(((n as { children?: unknown[] }).children) ?? [], out);
  }
  return out;
}

/**
 * The refs of every element shown as `role "name" [inferred=from] ... [marks]` in all three
 * formats (the same refs in each); fails when a format lacks it.
 */
export function refsIn(f: Formats, e: Expected): string[] {
  const inferred = e.from ? ` \\[inferred=${esc(e.from)}\\]` : '';
  const marks = (e.marks ?? []).map((m) => `(?=[^\\n]*${esc(m)})`).join('');
  const yamlRe = new RegExp(`- ${esc(e.role)} ${esc(JSON.stringify(e.name))}${inferred}${marks}[^\\n]*?\\[ref=((?:f\\d+)?e\\d+)\\]`, 'g');
  const textRe = new RegExp(`^ *${esc(e.role)} ${esc(JSON.stringify(e.name))}${inferred}${marks}[^\\n]*?\\[((?:f\\d+)?e\\d+)\\]`, 'gm');
  const yamlRefs = [...f.yaml.matchAll(yamlRe)].map((m) => m[1]);
  const textRefs = [...f.text.matchAll(textRe)].map((m) => m[1]);
  const jsonRefs = jsonNodes(f.json)
    .filter((n) => n.role === e.role && (e.from ? n.inferredName === e.name && n.inferredFrom === e.from : n.name === e.name))
    .map((n) => String(n.ref));
  expect(yamlRefs.length, `${e.role} "${e.name}" in yaml:\n${f.yaml}`).toBeGreaterThan(0);
  expect(textRefs, `${e.role} "${e.name}" in text:\n${f.text}`).toEqual(yamlRefs);
  expect(jsonRefs, `${e.role} "${e.name}" in json`).toEqual(yamlRefs);
  return yamlRefs;
}

/** The node with this ref in a JSON snapshot tree, or null. */
export function jsonNode(nodes: unknown[], ref: string): Record<string, unknown> | null {
  for (const n of nodes) {
    if (!n || typeof n !== 'object') continue;
    const e = n as Record<string, unknown>;
    if (e.ref === ref) return e;
    const hit = jsonNode((e.children as unknown[]) ?? [], ref);
    if (hit) return hit;
  }
  return null;
}
