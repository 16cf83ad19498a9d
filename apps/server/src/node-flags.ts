// V8 flags the server runs with: `npm start` and the Dockerfile pass them on the command
// line (heap sizes are fixed when the isolate is created: v8.setFlagsFromString at run time
// does not resize it), and bench/concurrency.mjs starts the server the same way.
// tests/node-flags.test.ts checks that every start path carries them.
//
// --max-semi-space-size=32 (MB; Node 20's default tops out at 16): under a snapshot load at
// N=40 the server ran ~7 young-generation collections a second, each promoting the
// requests in flight. With 32 it spent 4-10 % less CPU per snapshot and served 2-6 % more
// (bench/server-ab.mjs, both sides' positions swapped and an A/A control: bench/README).
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
