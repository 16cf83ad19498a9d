import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Prometheus metrics of one node, in their own registry (several services can run in
// one process, as the tests do). Gauges that mirror state are computed at scrape time.

export interface MetricSources {
  sessions: () => number;
  leased: () => number;
  capacity: () => number;
  restarts: () => number;
  clusterLeases: () => Promise<number>;
  queued: () => Promise<number>;
}

export class Metrics {
  readonly registry = new Registry();
  readonly opDuration: Histogram<'op' | 'outcome'>;
  readonly queueWait: Histogram<'queued'>;
  readonly errors: Counter<'code'>;
  readonly forwarded: Counter<'kind'>;

  constructor(src: MetricSources, nodeId: string) {
    const r = this.registry;
    r.setDefaultLabels({ node: nodeId });
    collectDefaultMetrics({ register: r, prefix: 'ariadne_process_' });
    new Gauge({ name: 'ariadne_sessions', help: 'Live sessions on this node.', registers: [r], collect() { this.set(src.sessions()); } });
    new Gauge({ name: 'ariadne_leases', help: 'Browser contexts leased on this node.', registers: [r], collect() { this.set(src.leased()); } });
    new Gauge({ name: 'ariadne_capacity', help: 'Context slots on this node.', registers: [r], collect() { this.set(src.capacity()); } });
    new Gauge({ name: 'ariadne_browser_restarts', help: 'Browsers replaced after a crash since start.', registers: [r], collect() { this.set(src.restarts()); } });
    new Gauge({
      name: 'ariadne_cluster_leases', help: 'Unexpired context leases in the whole cluster.', registers: [r],
      async collect() { this.set(await src.clusterLeases().catch(() => -1)); },
    });
    new Gauge({
      name: 'ariadne_queue_depth', help: 'Session requests waiting for capacity, cluster-wide.', registers: [r],
      async collect() { this.set(await src.queued().catch(() => -1)); },
    });
    this.opDuration = new Histogram({
      name: 'ariadne_op_duration_seconds', help: 'Page operations (snapshot, action, ...) by op and outcome.',
      labelNames: ['op', 'outcome'], buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [r],
    });
    this.queueWait = new Histogram({
      name: 'ariadne_queue_wait_seconds', help: 'Time a session request waited for a slot.',
      labelNames: ['queued'], buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60], registers: [r],
    });
    this.errors = new Counter({ name: 'ariadne_errors_total', help: 'Error responses by code.', labelNames: ['code'], registers: [r] });
    this.forwarded = new Counter({ name: 'ariadne_forwarded_total', help: 'Requests forwarded to the owning node.', labelNames: ['kind'], registers: [r] });
  }
}
