// MCP server over the Ariadne service: stdio and Streamable HTTP (issue 14).
export {};
