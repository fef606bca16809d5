# Gatehouse: server and console in one image. See docs/deployment.md.
#
#   docker build -t gatehouse .
#   docker run -p 3000:3000 -v gatehouse-data:/data gatehouse
#
# Node 20.19 or later is needed (dependencies are loaded with require(esm)); node:20-slim is Debian
# based, so the prebuilt glibc binaries of better-sqlite3 and bcrypt apply.
ARG NODE_IMAGE=node:20-slim

# ---- build: install everything, compile the server, build the console, then drop dev dependencies ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Compilers, only used if a native module (better-sqlite3, bcrypt) has no prebuilt binary for the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json .npmrc ./
COPY console-kit/package.json console-kit/
COPY host-app/package.json host-app/
RUN npm ci
COPY . .
# = npm run build:server (nest build → dist/) && npm run build:console (console-kit, then host-app/dist)
RUN npm run build \
  && npm prune --omit=dev

# ---- runtime: compiled server, built console, production dependencies ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# package.json: /api/status reports its version. STATIC_DIR defaults to host-app/dist under /app.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/host-app/dist ./host-app/dist
# /data holds the SQLite database and the generated session secret of a single node; owned by the
# unprivileged user the server runs as (the `node` user of the base image, uid 1000).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/status').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: stop accepting connections, finish requests in flight (SHUTDOWN_TIMEOUT), write queued
# charges and logs, exit 0. Give the container longer than SHUTDOWN_TIMEOUT to stop (docker stop -t).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/src/main.js"]
