export function serializeFrame(_args: unknown, _owners: Element[]): unknown {
  return { lines: [] };
}
