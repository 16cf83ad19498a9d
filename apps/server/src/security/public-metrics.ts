// With METRICS_PUBLIC=1 anyone can read /metrics: series that name a tenant (per-tenant
// quotas, usage) are left out, so one tenant cannot watch another's load.

const TENANT_LABEL = /[{,]\s*tenant\s*=\s*"/;

export function withoutTenantSeries(exposition: string): string {
  return exposition.split('\n').filter((line) => line.startsWith('#') || !TENANT_LABEL.test(line)).join('\n');
}
