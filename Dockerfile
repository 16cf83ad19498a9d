# Ariadne: one node with Debian's Chromium and redis-server (used when REDIS_URL is unset).
# docker build -t ariadne . && docker run --rm -p 3000:3000 --shm-size=1g -e API_KEYS=... ariadne

# Node 24 is an LTS line supported to 2028-04-30 (Node 20 reached its end of life on
# 2026-04-30); pinned by major in both stages, on Debian 12 like the Chromium it installs.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
# Dev dependencies (typescript) only for the build; pruned before the runtime stage copies.
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium redis-server tini ca-certificates fonts-liberation fonts-noto-color-emoji \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# An unprivileged user lets Chromium use its own sandbox where the container allows user
# namespaces (see docs/security.md, "Chromium sandbox"); otherwise the pool falls back to --no-sandbox.
RUN mkdir -p /data && chown node:node /data
USER node
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    STATE_DIR=/data \
    CHROMIUM_PATH=/usr/bin/chromium
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini reaps Chromium's helper processes and passes SIGTERM on for a graceful shutdown.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=32", "apps/server/dist/main.js"]
