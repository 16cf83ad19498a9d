import WebSocket from 'ws';

// Pipes a client's stream to the node that owns the session, both ways, close codes
// included, so a client can open the stream on any node.

/** A relayed client whose send queue grows past this is cut off like a local one (4008). */
const MAX_RELAY_BUFFERED = 8 * 1024 * 1024;
const MAX_PENDING = 256;

export function proxyStream(client: WebSocket, targetUrl: string, headers: Record<string, string>): void {
  const upstream = new WebSocket(targetUrl, { headers, maxPayload: 0 });
  const pending: { data: WebSocket.RawData; binary: boolean }[] = [];
  client.on('message', (data, binary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
    else if (pending.length < MAX_PENDING) pending.push({ data, binary });
  });
  upstream.on('open', () => {
    for (const m of pending.splice(0)) upstream.send(m.data, { binary: m.binary });
  });
  upstream.on('message', (data, binary) => {
    if (client.readyState !== WebSocket.OPEN) return;
    if (client.bufferedAmount > MAX_RELAY_BUFFERED) {
      client.close(4008, 'slow_consumer');
      upstream.terminate();
      return;
    }
    client.send(data, { binary });
  });
  // 1005/1006 are never sent on the wire: report them as "going away".
  const sendable = (code: number) => (code === 1005 || code === 1006 || code < 1000 ? 1001 : code);
  upstream.on('close', (code, reason) => {
    if (client.readyState === WebSocket.OPEN) client.close(sendable(code), reason.toString());
  });
  upstream.on('error', () => {
    if (client.readyState === WebSocket.OPEN) client.close(1011, 'node_unreachable');
  });
  client.on('close', () => {
    if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) upstream.close();
  });
  client.on('error', () => upstream.terminate());
}
