# One image for every service; the command chooses the entry point (docs/decisions/0004):
#   gateway  node dist/apps/gateway/src/main.js     (default CMD; also serves dist/apps/dashboard and dist/apps/api-reference)
#   ledger   node dist/apps/ledger/src/main.js
#   payout   node dist/apps/payout/src/main.js
#   workers  node dist/apps/workers/src/main.js
#   migrate  node dist/tools/admin/main.js migrate --dir prisma/migrations
#   admin    node dist/tools/admin/main.js <command>
#   snap-simulator  node dist/apps/snap-simulator/src/main.js   (the SNAP provider simulator; never beside a bank)
#   snap-keys       node dist/tools/snap/make-keys.js <dir>     (local SNAP secret and key pairs)
#
# Built with BuildKit (DOCKER_BUILDKIT=1 or buildx; RUN --mount needs it). No `# syntax=` line: the
# built-in Dockerfile frontend has every feature used here, and a syntax image would have to be
# pulled from a registry. Where no registry is reachable, tools/containers/build-images.sh builds
# NODE_IMAGE locally (docs/operations/containers.md).
#
# Base image: pinned by exact version tag, the Node.js version of .nvmrc (the project's one
# pin; tools/deploy-checks/node-version.spec.ts fails when the two differ). It is not pinned by
# digest only because the digest cannot be resolved on the offline machine these files were
# written on; add `@sha256:...` in CI (e.g. `docker buildx imagetools inspect
# node:24.21.0-bookworm-slim`).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# --- build: all dependencies, Prisma client, swc ----------------------------------------
FROM base AS build
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency install script is needed (same as the dev machines, where
# npm 11 runs none unless approved). Notably @prisma/engines' postinstall would try to
# download a native engine, which the Rust-free client with @prisma/adapter-pg never uses.
# `npm install` rather than `npm ci`: the lock file is written on machines whose npm omits
# other platforms' optional packages (@swc/core-*), which `npm ci` then rejects as out of
# sync; `npm install` installs exactly the locked versions all the same.
# The secret `extra_ca` (optional): CA certificates npm must trust where outbound TLS is re-signed
# (build-images.sh passes the machine's); a secret, so it is in no layer of any image.
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=extra_ca \
    if [ -s /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi \
 && npm install --no-audit --no-fund --ignore-scripts
COPY . .
# The client is generated into libs/persistence/src/generated/prisma and compiled into
# dist/ by swc together with everything else; the build also bundles the web app (Vite) into
# dist/apps/dashboard, which the gateway serves (/dashboard/ public, /console/ internal): an
# image without it would start and serve no dashboard, so the build stops here instead.
RUN bash tools/prisma/generate.sh \
 && npm run build \
 && test -f dist/apps/gateway/src/main.js \
 && test -f dist/apps/ledger/src/main.js \
 && test -f dist/apps/payout/src/main.js \
 && test -f dist/apps/workers/src/main.js \
 && test -f dist/tools/admin/main.js \
 && test -f dist/apps/snap-simulator/src/main.js \
 && test -f dist/tools/snap/make-keys.js \
 && test -f dist/apps/dashboard/merchant/index.html \
 && test -f dist/apps/dashboard/console/index.html \
 && test -f dist/apps/api-reference/index.html

# --- production dependencies only (prisma CLI, swc, nx, jest... are devDependencies) -----
FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=extra_ca \
    if [ -s /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi \
 && npm install --omit=dev --no-audit --no-fund --ignore-scripts

# --- runtime ------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: forwards SIGTERM to node and reaps zombies, so node never runs as PID 1
# (which ignores signals it has no handler for and does not reap children).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Bind addresses default to loopback in the code; in a container the probes, Prometheus and the
# other pods reach the container's own address, so every listener binds all interfaces here.
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    GATEWAY_HOST=0.0.0.0 \
    GATEWAY_INTERNAL_HOST=0.0.0.0 \
    OPS_HOST=0.0.0.0
# Code and dependencies stay owned by root and read-only to the `node` user (uid 1000) the
# services run as; nothing is written under /app at run time (only /tmp).
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY package.json ./
# /snap belongs to `node`: a named volume mounted there empty (compose's snap-keys) takes this
# owner, so the one-shot that writes the SNAP keys can write them as `node`.
RUN mkdir /snap && chown node:node /snap
USER node
# gateway public and internal HTTP, then the ops ports of ledger, payout, workers
EXPOSE 3000 3001 9101 9102 9103
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/apps/gateway/src/main.js"]
# No HEALTHCHECK here: the port and path depend on the service, so compose and Kubernetes
# declare their own checks.
