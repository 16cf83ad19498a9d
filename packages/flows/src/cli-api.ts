// The one HTTP helper both CLIs (`ariadne run`, `ariadne suite`) talk to a server with.

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
