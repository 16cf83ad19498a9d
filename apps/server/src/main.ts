#!/usr/bin/env node
import { ConfigError, loadConfig } from './config.js';
import { createLogger, startService, StartupError } from './runtime.js';
import { claimProcessTempDir } from './temp-dir.js';

// `npm start` ends up here: read the config, start the service, stop it cleanly on
// SIGINT/SIGTERM (a second signal forces the exit).

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config);
  // Every temp file of this process and its browsers under STATE_DIR/tmp/<pid> (temp-dir.ts).
  // Read before TMPDIR is pointed at the result: a fallback goes to the system temp dir.
  const temp = claimProcessTempDir(config.stateDir);
  process.env.TMPDIR = temp.dir;
  if (temp.tooLong) {
    logger.warn({ dir: temp.dir, tooLong: temp.tooLong }, 'STATE_DIR is too deep for Chromium (its socket path would not fit): temp files go to the system temp dir instead');
  }
  if (temp.removed.length) logger.info({ dirs: temp.removed }, 'removed the temp dirs of servers that did not stop cleanly');
  let service;
  try {
    service = await startService(config, logger);
  } catch (err) {
    if (err instanceof StartupError) {
      logger.fatal(err.message);
      temp.remove();
      process.stderr.write(`\nAriadne could not start: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  let firstSignalAt = 0;
  const stop = (signal: string) => {
    // Ctrl-C under `npm start` arrives twice at once: from the terminal (whole process
    // group) and forwarded by npm. Only a signal a moment later means "force it".
    if (firstSignalAt && Date.now() - firstSignalAt < 1000) return;
    if (firstSignalAt) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    firstSignalAt = Date.now();
    logger.info({ signal }, 'shutting down');
    service.close().then(() => { temp.remove(); process.exit(0); }, (err) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
}

void main();
