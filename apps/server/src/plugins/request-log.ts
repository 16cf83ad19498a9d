import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactRequestUrl } from '../security/redact.js';

// One log line per request at the default level: Fastify's own pair ("incoming request"
// at the start, "request completed" at the end) costs two serialized and written lines per
// call, which under a snapshot load is a visible share of the server's CPU. The completion
// line carries what the pair did (reqId, method, URL with credentials redacted, status,
// duration) plus the tenant; the start of a request is still logged at debug, for tracing
// a call that never ends.
//
// The completion line of a request that went well has fixed keys, none of which is a
// secret (the URL's credentials are redacted here), so it is written through a twin of the
// service logger without pino's path redaction: with wildcard paths (`*.token`) pino runs
// every value of every line through the redactor, which made this one line cost several
// times the rest of its formatting. Same stream, serializers and formatters (the text
// redaction of every string still runs), so the line is the one the logger would write.
// A line with an error goes through the request's own logger, redaction and all.

type TwinCapable = FastifyBaseLogger & { child(bindings: object, options: { redact: string[]; level: string }): FastifyBaseLogger };

export class RequestLog extends LogController {
  private readonly lines: FastifyBaseLogger | null;

  constructor(logger?: FastifyBaseLogger) {
    super();
    // level 'trace': whether the line is written is decided by the request's logger below.
    this.lines = logger ? (logger as TwinCapable).child({}, { redact: [], level: 'trace' }) : null;
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request'); // a no-op above debug
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !(reply.log as unknown as Logger).isLevelEnabled('info')) return;
    const line = {
      method: request.method,
      url: redactRequestUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(request.tenant ? { tenant: request.tenant } : {}),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (this.lines) this.lines.info({ reqId: request.id, ...line }, 'request');
    else reply.log.info(line, 'request');
  }
}
