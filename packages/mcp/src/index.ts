// MCP server over the Ariadne service: stdio and Streamable HTTP (issue 14).
export { fetchBackend, AriadneCallError, jsonOf, withQuery, type HttpBackend, type HttpAnswer } from './backend.js';
export { BrowserState } from './browser-state.js';
export { createAriadneMcp, MCP_SERVER_NAME, MCP_SERVER_VERSION, type AriadneMcp, type AriadneMcpOptions } from './server.js';
export { McpHttpSessions, checkHostAndOrigin, type McpHttpOptions } from './http.js';
export { runStdio, MCP_USAGE } from './stdio.js';
export { loadGuide, GUIDE_DIR, type GuideDoc } from './guide.js';
