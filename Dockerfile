# syntax=docker/dockerfile:1
#
# One image for every Skald process. TARGET picks what runs (all | gateway | auth | ingestion | logs |
# webhooks | backups | billing | admin); see docs/DEPLOYMENT.md. Node 26 runs the TypeScript sources
# directly (type stripping), so there is no compile step: only the web app is built, and Node's compile
# cache is written (runtime stage).
#
#   docker build -t skald:local .
#   docker run -p 8080:8080 -v skald-data:/data skald:local          # all-in-one

ARG NODE_IMAGE=node:26-bookworm-slim

# ---- deps: every dependency (dev included: Vite builds the web app) ---------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# Only the manifests, so this layer is reused until a dependency changes. npm needs every workspace's
# package.json to link the @skald/* packages.
COPY package.json package-lock.json ./
COPY libs/adapters/package.json libs/adapters/
COPY libs/config/package.json libs/config/
COPY libs/contracts/package.json libs/contracts/
COPY libs/ports/package.json libs/ports/
COPY libs/service-kit/package.json libs/service-kit/
COPY libs/testing/package.json libs/testing/
COPY services/admin/package.json services/admin/
COPY services/auth/package.json services/auth/
COPY services/backups/package.json services/backups/
COPY services/billing/package.json services/billing/
COPY services/ingestion/package.json services/ingestion/
COPY services/logs/package.json services/logs/
COPY services/webhooks/package.json services/webhooks/
COPY gateway/package.json gateway/
COPY web/package.json web/
# `npm install`, not `npm ci`: the lockfile was written on another platform and `npm ci` rejects it over
# optional platform binaries (sharp, rolldown); `npm install` honours the lockfile's versions and
# picks the linux binaries.
RUN --mount=type=cache,target=/root/.npm \
    npm install --no-audit --no-fund --loglevel=warn

# ---- build: the web app (web/dist, served by the gateway at /) -------------------------------------
FROM deps AS build
COPY . .
ENV NX_DAEMON=false NX_NO_CLOUD=true
RUN npm run build:web

# ---- prod-deps: the same tree without devDependencies ----------------------------------------------
FROM deps AS prod-deps
RUN --mount=type=cache,target=/root/.npm \
    npm prune --omit=dev --no-audit --no-fund --loglevel=warn

# ---- runtime ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX=2: glibc's per-thread pools otherwise grow with every round of photo decodes past the
# documented photo memory bound (docs/INGESTION.md, "Photo memory").
ENV NODE_ENV=production \
    TARGET=all \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY libs ./libs
COPY services ./services
COPY gateway ./gateway
COPY web/package.json ./web/package.json
COPY --from=build /app/web/dist ./web/dist
COPY scripts/warm-compile-cache.ts scripts/node-flags.mjs ./scripts/
# The official image ships the unprivileged `node` user (uid/gid 1000). The code stays root-owned and
# read-only to it; writable are DATA_DIR (all-in-one data, per-service scratch directories) and Node's
# compile cache (below).
ENV NODE_COMPILE_CACHE=/app/.cache/node-compile-cache
RUN mkdir -p /data /app/.cache/node-compile-cache && chown node:node /data /app/.cache/node-compile-cache
# Numeric, so Kubernetes' runAsNonRoot can verify it without resolving a user name.
USER 1000:1000
# Node's module compile cache (type-stripped sources, V8 code cache) written into the image, so that every
# container's first start is a warm one: a start that misses a TypeScript module loads Node's TypeScript
# stripper for the life of the process (~10 MiB more idle RSS) and compiles from source. The script starts
# the all-in-one once (throwaway DATA_DIR, loopback ports) until /health answers, stops it, and imports
# every other workspace module (other TARGETs, optional adapters). Node keys the cache by its version, the
# V8 flags, the CPU's features and the uid, hence here: after USER, with the runtime's environment. A run
# that misses anyway (a host whose CPU features differ from the builder's, V8 flags in NODE_OPTIONS)
# starts cold as before and adds its own entries where the filesystem is writable (read-only, as in
# Kubernetes, the cache is only read); another uid finds no cache it may use and runs without one.
RUN node scripts/warm-compile-cache.ts
VOLUME ["/data"]
EXPOSE 8080
# Liveness of whatever TARGET runs: every process answers GET /health on its PORT.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM directly (the launcher drains and closes adapters).
# The V8 flags are scripts/node-flags.mjs's NODE_FLAGS (why there; deploy/check-manifests.mjs holds the two equal).
CMD ["node", "--no-memory-pool-share-memory-on-teardown", "gateway/src/main.ts"]
