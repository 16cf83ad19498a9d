import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError, type ErrorCode } from '@ariadne/schema';
import { bullConnection, bullPrefix, QUEUES } from './queues.js';
import { withRedis } from './redis.js';

// The admission queue in front of the cluster's browser capacity, on BullMQ.
// A create request becomes a job; a node pulls the next job only when it has a free
// context slot, creates the session, and completes the job with the session, which
// the node holding the HTTP request is waiting for. FIFO, with fairness across
// tenants from BullMQ priorities: a tenant's n-th waiting request gets priority n,
// so each tenant's first request goes ahead of another tenant's second.

export interface AdmissionRequest {
  tenant: string;
  /** Context slots the request needs (one per role). */
  slots: number;
  body: unknown;
  requestId?: string;
  node: string;
  enqueuedAt: number;
}

export interface AdmissionOptions {
  redisUrl: string;
  redis: Redis;
  redisPrefix: string;
  nodeId: string;
  maxQueued: number;
  /** Requests one tenant may have waiting (0 = no per-tenant cap): a tenant cannot fill the queue. */
  maxQueuedFor?: (tenant: string) => number;
  /** Free context slots on this node right now. */
  freeSlots: () => number;
  /**
   * Waits until slots held for admissions whose outcome is still open (a quota being
   * checked) are taken or given back; true when there were any. Without it, a burst that
   * arrives together hears "full" from slots that a refused request is about to return.
   */
  slotsSettled?: () => Promise<boolean>;
  /** Create the session on this node (the admitting node). */
  admit: (req: AdmissionRequest) => Promise<unknown>;
  logger?: { warn(o: object, m?: string): void; info(o: object, m?: string): void };
}

export interface AdmissionResult {
  result: unknown;
  waitedMs: number;
  queued: boolean;
}

function encodeError(err: unknown): Error {
  const e = err instanceof AppError ? err : new AppError('internal_error', err instanceof Error ? err.message : String(err));
  return new Error(JSON.stringify({ code: e.code, message: e.message, details: e.details, headers: e.headers }));
}

function decodeError(err: unknown): AppError {
  const msg = err instanceof Error ? err.message : String(err);
  try {
    const j = JSON.parse(msg) as { code: ErrorCode; message: string; details?: Record<string, unknown>; headers?: Record<string, string> };
    if (j && typeof j.code === 'string') return new AppError(j.code, j.message, j.details, j.headers);
  } catch {
    /* not ours */
  }
  return new AppError('internal_error', msg);
}

export class Admission {
  readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly worker: Worker;
  private readonly connections: Redis[] = [];
  private closed = false;
  private wake: (() => void) | null = null;
  /** Set when shutdown begins: no new requests, and waiting ones are answered. */
  private draining = false;
  /** Cancels for requests waiting in the queue on this node. */
  private readonly waiting = new Set<(err: AppError) => void>();
  private loop: Promise<void> | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private readonly tenantKey: (t: string) => string;
  /** Requests waiting in the queue, cluster-wide (the cap is enforced on this). */
  private readonly depthKey: string;
  /** Set by a requester that stopped waiting for a job some node already holds. */
  private readonly abandonedKey: (jobId: string) => string;

  constructor(private readonly opts: AdmissionOptions) {
    const prefix = bullPrefix(opts.redisPrefix);
    const conn = () => {
      const c = bullConnection(opts.redisUrl);
      this.connections.push(c);
      return c;
    };
    this.queue = new Queue(QUEUES.admission, { connection: conn(), prefix });
    this.events = new QueueEvents(QUEUES.admission, { connection: conn(), prefix });
    // No processor: jobs are pulled by hand, only when this node has a free slot.
    this.worker = new Worker(QUEUES.admission, null, { connection: conn(), prefix, autorun: false, lockDuration: 30_000 });
    this.tenantKey = (t) => `${opts.redisPrefix}admission:tenant:${t}`;
    this.depthKey = `${opts.redisPrefix}admission:depth`;
    this.abandonedKey = (jobId) => `${opts.redisPrefix}admission:abandoned:${jobId}`;
    this.queue.on('error', () => {});
    this.events.on('error', () => {});
    this.events.on('waiting', () => this.wake?.());
    this.events.on('added', () => this.wake?.());
    this.worker.on('error', () => {});
  }

  async start(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady(), this.worker.waitUntilReady()]);
    await this.resync();
    // Jobs held by a node that died mid-admission go back to the queue.
    void this.worker.startStalledCheckTimer().catch(() => {});
    this.loop = this.pull();
  }

  /** A slot was freed on this node: look at the queue again. */
  slotFreed(): void {
    this.wake?.();
  }

  /** Requests not admitted yet: waiting, or taken by a node that is about to admit them. */
  async queued(): Promise<number> {
    if (this.opts.redis.status !== 'ready') throw new AppError('redis_unavailable', 'Redis is unreachable; retry shortly.');
    return withRedis(() => this.queue.getJobCountByTypes('waiting', 'prioritized', 'active'));
  }

  /**
   * Re-align the depth counter with BullMQ's own count (a node that died between
   * taking a job and decrementing would otherwise leave it one too high).
   */
  async resync(): Promise<void> {
    const actual = await withRedis(() => this.queue.getJobCountByTypes('waiting', 'prioritized'));
    await withRedis(() => this.opts.redis.set(this.depthKey, actual));
  }

  /**
   * Admit a create request: at once when nobody is waiting and this node has room,
   * else through the queue, waiting up to timeoutMs. Throws 429 queue_full, 503
   * queue_timeout, or the admitting node's error.
   */
  async request(
    req: Omit<AdmissionRequest, 'node' | 'enqueuedAt'>,
    timeoutMs: number,
    signal?: AbortSignal,
    /** Undo a result nobody waits for any more (timed out or disconnected). */
    discard: (result: unknown) => Promise<void> = async () => {},
  ): Promise<AdmissionResult> {
    const started = Date.now();
    if (this.draining || this.closed) throw new AppError('shutting_down', 'This node is shutting down; retry shortly.');
    const full: AdmissionRequest = { ...req, node: this.opts.nodeId, enqueuedAt: started };
    let waiting = await this.queued();
    // No room: first let the slots of admissions still being decided come back, if any.
    while (!(waiting === 0 && this.opts.freeSlots() >= req.slots) && await this.opts.slotsSettled?.()) {
      waiting = await this.queued();
    }
    // admit() takes its pool slots synchronously (the pool reserves before its first
    // await), so checking and admitting in one tick cannot overshoot.
    if (waiting === 0 && this.opts.freeSlots() >= req.slots) {
      return { result: await this.opts.admit(full), waitedMs: Date.now() - started, queued: false };
    }
    // Not willing to wait: fail now. (BullMQ reads a 0 ttl as "no timeout", so a 0
    // must never reach waitUntilFinished.)
    if (timeoutMs <= 0) {
      throw new AppError('capacity_exhausted', `No browser slot is free right now${waiting ? ` (${waiting} requests waiting)` : ''}, and this request does not wait (queueTimeoutSeconds: 0).`, {
        queued: waiting,
        slots: req.slots,
      });
    }
    // The cap is checked and taken in one atomic INCR, so concurrent requests on any
    // node cannot overfill the queue.
    const depth = await withRedis(() => this.opts.redis.incr(this.depthKey));
    if (depth > this.opts.maxQueued) {
      await this.opts.redis.decr(this.depthKey).catch(() => {});
      throw new AppError('queue_full', `The admission queue is full (${this.opts.maxQueued} waiting); retry later.`, { queued: depth - 1, max: this.opts.maxQueued }, { 'retry-after': '5' });
    }
    const priority = await withRedis(async () => {
      const n = await this.opts.redis.incr(this.tenantKey(req.tenant));
      await this.opts.redis.expire(this.tenantKey(req.tenant), 3600);
      return n;
    });
    // The tenant's counter is its number of waiting requests (taken in the same INCR).
    const tenantCap = this.opts.maxQueuedFor?.(req.tenant) ?? 0;
    if (tenantCap > 0 && priority > tenantCap) {
      await this.opts.redis.multi().decr(this.tenantKey(req.tenant)).decr(this.depthKey).exec().catch(() => {});
      throw new AppError('quota_exceeded', `Tenant "${req.tenant}" may have ${tenantCap} session requests waiting for capacity; retry later.`, {
        quota: 'max_queued', limit: tenantCap, current: priority - 1, retryAfterSeconds: 5,
      }, { 'retry-after': '5' });
    }
    let job: Job;
    try {
      job = await withRedis(() => this.queue.add('create', full, { jobId: randomUUID(), priority: Math.min(priority, 2 ** 21 - 1), removeOnComplete: { age: 300 }, removeOnFail: { age: 300 } }));
    } catch (err) {
      await this.opts.redis.multi().decr(this.tenantKey(req.tenant)).decr(this.depthKey).exec().catch(() => {});
      throw err;
    }
    const abandoned = () => this.abandon(job, req.tenant, discard);
    const onAbort = () => void abandoned();
    signal?.addEventListener('abort', onAbort, { once: true });
    let cancel!: (err: AppError) => void;
    const cancelled = new Promise<never>((_, reject) => { cancel = reject; });
    cancelled.catch(() => {});
    this.waiting.add(cancel);
    try {
      const result = await Promise.race([job.waitUntilFinished(this.events, timeoutMs), cancelled]);
      return { result, waitedMs: Date.now() - started, queued: true };
    } catch (err) {
      // Answer at once; taking the job back (or undoing it) goes on in the background.
      if (err instanceof AppError && err.code === 'shutting_down') {
        void abandoned();
        throw err;
      }
      if (signal?.aborted) throw new AppError('queue_timeout', 'The client went away while queued.');
      if (/timed out before finishing/.test((err as Error).message)) {
        void abandoned();
        throw new AppError('queue_timeout', `No browser capacity became free within ${Math.round(timeoutMs / 1000)} s.`, { waitedMs: Date.now() - started });
      }
      throw decodeError(err);
    } finally {
      this.waiting.delete(cancel);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * First step of shutdown: take no new requests and answer the ones waiting here with
   * 503 shutting_down, so they do not hold the HTTP server open until their timeout.
   */
  drain(): void {
    this.draining = true;
    for (const cancel of [...this.waiting]) cancel(new AppError('shutting_down', 'This node is shutting down; retry shortly.'));
  }

  /** Take a job nobody waits for out of the queue; if it was admitted meanwhile, undo it. */
  private async abandon(job: Job, tenant: string, discard: (result: unknown) => Promise<void>): Promise<void> {
    try {
      await job.remove();
      await this.opts.redis.multi().decr(this.tenantKey(tenant)).decr(this.depthKey).exec().catch(() => {});
      return;
    } catch {
      // Active or already done. A node holding it may still be waiting for free slots:
      // flag it so that node fails it instead of admitting it for nobody.
      await this.opts.redis.set(this.abandonedKey(String(job.id)), '1', 'EX', 600).catch(() => {});
    }
    try {
      const result = await job.waitUntilFinished(this.events, 60_000);
      await discard(result);
    } catch {
      /* it failed: nothing to undo */
    }
  }

  private async pull(): Promise<void> {
    const token = `${this.opts.nodeId}:${randomUUID()}`;
    while (!this.closed) {
      if (this.opts.freeSlots() < 1) {
        await this.sleep(1000);
        continue;
      }
      // Take a job only while a slot is free: no blocking fetch that could return a job
      // after the slot is gone (that job would wait here while other nodes have room).
      // New jobs wake the loop through QueueEvents; the timeout is a safety net.
      let job: Job | undefined;
      try {
        job = await this.worker.getNextJob(token, { block: false });
      } catch {
        if (!this.closed) await this.sleep(500);
        continue;
      }
      if (!job) {
        await this.sleep(1000);
        continue;
      }
      if (this.closed) break;
      const data = job.data as AdmissionRequest;
      await this.opts.redis.multi().decr(this.tenantKey(data.tenant)).decr(this.depthKey).exec().catch(() => {});
      // Wait here for enough slots (a multi-role request), keeping the job locked, unless
      // its requester gave up meanwhile (queue timeout, client gone, its node stopping).
      const abandoned = async () => (await this.opts.redis.exists(this.abandonedKey(String(job!.id))).catch(() => 0)) === 1;
      let gaveUp = false;
      while (!this.closed && this.opts.freeSlots() < data.slots) {
        await this.sleep(500);
        if ((gaveUp = await abandoned())) break;
        await job.extendLock(token, 30_000).catch(() => {});
      }
      if (gaveUp || (!this.closed && (await abandoned()))) {
        await job.moveToFailed(encodeError(new AppError('queue_timeout', 'The requester stopped waiting.')), token, false).catch(() => {});
        continue;
      }
      // Stopping: leave the job unsettled; its lock lapses and the stalled check of a
      // live node puts it back in the queue.
      if (this.closed) continue;
      const j = job;
      const work: Promise<void> = this.opts
        .admit(data)
        .then(
          (result) => j.moveToCompleted(result, token, false),
          (err) => j.moveToFailed(encodeError(err), token, false),
        )
        .then(() => undefined, (err) => this.opts.logger?.warn({ err: String(err) }, 'admission job could not be settled'))
        .finally(() => this.inflight.delete(work));
      this.inflight.add(work);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.wake = null; resolve(); }, ms);
      this.wake = () => { clearTimeout(t); this.wake = null; resolve(); };
    });
  }

  async close(): Promise<void> {
    this.drain();
    this.closed = true;
    this.wake?.();
    await Promise.all(this.inflight);
    await this.worker.close(true).catch(() => {});
    await Promise.all([this.events.close().catch(() => {}), this.queue.close().catch(() => {})]);
    for (const c of this.connections) c.disconnect();
    await this.loop?.catch(() => {});
  }
}
