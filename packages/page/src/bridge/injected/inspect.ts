export const OPS: Record<string, (args: any, list: { tag: string; el: Element }[] | null, extra: unknown[]) => unknown> = {};
