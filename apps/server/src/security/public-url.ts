import type { Config } from '../config.js';

// The base of every link that leaves the service (commit statuses, Slack and webhook
// messages, signed report links): PUBLIC_URL, else this node's configured URL. Never a
// request's Host or X-Forwarded-* header: anyone can send a delivery with
// `Host: attacker.example`, and the validly signed link would then lead there.

type LinkConfig = Pick<Config, 'host' | 'port'> & { notify: Pick<Config['notify'], 'publicUrl'>; cluster: Pick<Config['cluster'], 'nodeUrl'> };

/** PUBLIC_URL, else NODE_URL (or the URL this node listens on), else http://HOST:PORT; no trailing slash. */
export function publicBaseUrl(config: LinkConfig, listeningUrl?: string): string {
  const fromConfig = config.notify.publicUrl || config.cluster.nodeUrl || listeningUrl;
  if (fromConfig) return fromConfig.replace(/\/+$/, '');
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

const LOOPBACK_HOST = /^(localhost|localhost\.|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|\[::ffff:127(\.\d{1,3}){3}\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;

/** True when a URL's host only answers on the machine itself. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** What /healthz warns about links: they would point at loopback, which nobody else can open. */
export function linkWarnings(config: LinkConfig, listeningUrl?: string): string[] {
  const base = publicBaseUrl(config, listeningUrl);
  if (!isLoopbackUrl(base)) return [];
  return [`Links sent out of the service (commit statuses, Slack and webhook messages, report links) point at ${base}, a loopback address nobody else can open: set PUBLIC_URL to where people reach this service.`];
}
