import { describe, expect, it } from 'vitest';
import { EgressPolicy, normalizeHost, parseRules } from '@ariadne/egress';
import { ConfigError, loadConfig } from '@ariadne/server';

// The egress policy's decisions (pure logic; names resolve through a fake resolver so
// the test does not depend on the machine's DNS, except `localhost` which is checked
// against the real resolver too).

const fakeDns: Record<string, string[]> = {
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'public.example': ['93.184.216.34'],
  'intranet.example': ['10.1.2.3'],
  'v6loop.example': ['::1'],
  'mapped.example': ['::ffff:169.254.169.254'],
};
const resolve = async (host: string) => {
  const list = fakeDns[host];
  if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const strict = (o: Partial<ConstructorParameters<typeof EgressPolicy>[0]> = {}) => new EgressPolicy({ mode: 'strict', resolve, ownPorts: () => [3000, 6390], ...o });

describe('strict default (API keys set)', () => {
  it('judges every spelling of loopback, metadata and private addresses by where it leads', async () => {
    const p = strict();
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'], ['127.1', 'loopback'], ['2130706433', 'loopback'], ['0x7f000001', 'loopback'], ['0177.0.0.1', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['[::1]', 'loopback'], ['[64:ff9b::7f00:1]', 'loopback'], ['[2002:7f00:1::]', 'loopback'],
      ['169.254.169.254', 'metadata'], ['[fd00:ec2::254]', 'metadata'], ['[::ffff:a9fe:a9fe]', 'metadata'], ['metadata.google.internal', 'metadata'], ['METADATA.GOOGLE.INTERNAL.', 'metadata'],
      ['169.254.10.10', 'link-local'], ['[fe80::1]', 'link-local'], ['0.0.0.0', 'unspecified'], ['[::]', 'unspecified'],
      ['10.0.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'], ['100.64.0.1', 'private'], ['[fd12::1]', 'private'],
      ['224.0.0.1', 'multicast'], ['255.255.255.255', 'reserved'],
      ['rebind.example', 'loopback'], ['intranet.example', 'private'], ['v6loop.example', 'loopback'], ['mapped.example', 'metadata'],
    ];
    for (const [host, reason] of cases) {
      const d = await p.decide(host, 80);
      expect(d.allowed, host).toBe(false);
      expect(d.reason, host).toBe(reason);
    }
    expect((await p.decide('nowhere.example', 80)).reason).toBe('dns: ENOTFOUND');
    expect((await p.decide('bad host', 80)).allowed).toBe(false);
  });

  it('allows public addresses and says where to connect (the address it checked)', async () => {
    const d = await strict().decide('public.example', 443);
    expect(d).toMatchObject({ allowed: true, address: '93.184.216.34', family: 4 });
    expect((await strict().decide('8.8.8.8', 53)).allowed).toBe(true);
  });

  it('resolves localhost with the system resolver to a denied address', async () => {
    const p = new EgressPolicy({ mode: 'strict' });
    const d = await p.decide('localhost', 80);
    expect(d.allowed).toBe(false);
    expect(d.reason).toBe('loopback');
  });

  it('EGRESS_ALLOW opens ranges and names; EGRESS_DENY always wins; own ports stay closed', async () => {
    const p = strict({ allow: ['10.0.0.0/8', '*.staging.example', '127.0.0.1'], deny: ['10.9.0.0/16', 'bad.staging.example'] });
    expect((await p.decide('10.1.2.3', 80)).allowed).toBe(true);
    expect((await p.decide('10.9.1.1', 80)).reason).toBe('EGRESS_DENY 10.9.0.0/16');
    expect((await p.decide('bad.staging.example', 80)).reason).toBe('EGRESS_DENY bad.staging.example');
    fakeDns['app.staging.example'] = ['192.168.5.5'];
    expect((await p.decide('app.staging.example', 80))).toMatchObject({ allowed: true, address: '192.168.5.5' });
    expect((await p.decide('127.0.0.1', 8080)).allowed).toBe(true);
    // The service's own ports, on any local address, whatever EGRESS_ALLOW says.
    for (const host of ['127.0.0.1', '127.0.0.2', '[::1]', '0.0.0.0', 'localhost']) {
      fakeDns.localhost = ['127.0.0.1'];
      expect((await p.decide(host, 3000)).reason, host).toBe('service_port');
      expect((await p.decide(host, 6390)).reason, host).toBe('service_port');
    }
  });
});

describe('open mode (no API keys)', () => {
  it('allows loopback and private networks, but never metadata, own ports or EGRESS_DENY', async () => {
    const p = new EgressPolicy({ mode: 'open', resolve, ownPorts: () => [3000], deny: ['192.168.0.0/16'] });
    expect((await p.decide('127.0.0.1', 8080)).allowed).toBe(true);
    expect((await p.decide('10.0.0.1', 80)).allowed).toBe(true);
    expect((await p.decide('169.254.169.254', 80)).reason).toBe('metadata');
    expect((await p.decide('metadata.google.internal', 80)).reason).toBe('metadata');
    expect((await p.decide('127.0.0.1', 3000)).reason).toBe('service_port');
    expect((await p.decide('192.168.1.1', 80)).reason).toBe('EGRESS_DENY 192.168.0.0/16');
  });
});

describe('configuration', () => {
  it('parses CIDRs and host patterns, and refuses what is neither', () => {
    const { rules, problems } = parseRules(['10.0.0.0/8', 'fd00::/8', '*.internal', '.corp', 'localhost', '300.1.1.1/8', '10.0.0.0/33', 'a b']);
    expect(rules.cidrs.map((c) => c.text)).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(rules.hosts).toEqual(['*.internal', '*.corp', 'localhost']);
    expect(problems).toHaveLength(3);
    expect(normalizeHost('0x7f.1')).toBe('127.0.0.1');
  });

  it('stops the service on a bad EGRESS_DENY / EGRESS_ALLOW, naming the variable', () => {
    expect(() => loadConfig({ EGRESS_DENY: '10.0.0.0/99' })).toThrow(ConfigError);
    expect(() => loadConfig({ EGRESS_ALLOW: 'not a host!' })).toThrow(/EGRESS_ALLOW/);
    expect(loadConfig({ EGRESS_ALLOW: '10.20.0.0/16, *.staging.internal' }).egress.allow).toEqual(['10.20.0.0/16', '*.staging.internal']);
  });
});

describe('the proxy connects to the address it checked (DNS rebinding)', () => {
  it('never reaches the internal address even when the name flips between answers', async () => {
    const { createServer, request } = await import('node:http');
    const { EgressProxy } = await import('@ariadne/egress');
    // Same port on two loopback aliases: 127.0.0.5 is the allowed site, 127.0.0.2 internal.
    const internal = createServer((_q, res) => res.end('internal'));
    let internalConnections = 0;
    internal.on('connection', () => { internalConnections++; });
    await new Promise<void>((r) => internal.listen(0, '127.0.0.2', () => r()));
    const port = (internal.address() as import('node:net').AddressInfo).port;
    const site = createServer((_q, res) => res.end('public'));
    await new Promise<void>((r) => site.listen(port, '127.0.0.5', () => r()));
    // A resolver that alternates: allowed, internal, allowed, internal, ...
    let n = 0;
    const flip = async () => [{ address: n++ % 2 ? '127.0.0.2' : '127.0.0.5', family: 4 }];
    const proxy = new EgressProxy(new EgressPolicy({ mode: 'strict', allow: ['127.0.0.5/32'], resolve: flip }));
    const channel = await proxy.open();
    const get = () => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: channel.port, path: `http://rebind.test:${port}/`, headers: { host: `rebind.test:${port}` }, agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => { body += c; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    try {
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await get());
      expect(answers.filter((a) => a.status === 200).map((a) => a.body)).toEqual(Array(4).fill('public'));
      expect(answers.filter((a) => a.status === 403)).toHaveLength(4);
      expect(internalConnections).toBe(0);
      expect(channel.denials.map((d) => d.reason)).toEqual(Array(4).fill('loopback'));
    } finally {
      await proxy.close();
      await new Promise((r) => internal.close(r));
      await new Promise((r) => site.close(r));
    }
  });
});
