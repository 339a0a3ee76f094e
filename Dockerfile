# lawsuit-etl: the scheduler by default (`schedule`), any command on demand (`docker run IMAGE run`).
# Node 26 is the Active LTS line since 2026-10-28 (24 is in maintenance); both stages use the same Debian base so the DuckDB binding (glibc) matches.
ARG NODE_IMAGE=node:26-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` script compiles, and the sources are not here yet.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: forwards SIGTERM to node and reaps the job processes the scheduler spawns.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The memory budget of a run: V8's heap capped (its default scales with the host's RAM, not the container's
# share) beside DuckDB's own limit (LAWSUIT_DUCKDB_MEMORY_LIMIT, 128MB by default): under 512 MB RSS at 100k lawsuits.
ENV NODE_ENV=production NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=4"
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` needs TypeScript, a dev dependency. No runtime package needs an install script:
# DuckDB's native binding arrives as a prebuilt optional platform package (@duckdb/node-bindings-linux-x64).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY jobs ./jobs
COPY config ./config
# The documents list is the operator's to give: mount it read-only at this path. No example list is ever
# searched against the paid service; without the file, `schedule` and `run` stop at start with exit 2.
ENV LAWSUIT_DOCUMENTS=/app/lists/documents.csv
# The scheduler's /healthz, /livez and Prometheus /metrics (docs/operating.md "Health and metrics"), on all interfaces so
# probes and Prometheus reach it; `-e LAWSUIT_METRICS_PORT=` turns it off.
ENV LAWSUIT_METRICS_PORT=9464
# The webhook intake's port, when LAWSUIT_CALLBACK_PORT=8081 turns it on (docs/operating.md "The webhook intake").
EXPOSE 9464 8081
# Created and owned before VOLUME so a fresh named volume inherits the owner.
RUN mkdir -p /app/data /app/lists && chown node:node /app/data
USER node
VOLUME /app/data
# No curl in the slim image: node asks /healthz itself. Unhealthy after a job failed 3 times in a row or went
# twice its period without a success. A one-off command (`docker run IMAGE run`) serves no health: run it
# with --no-healthcheck.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["node", "dist/schedule/healthcheck.js"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/cli/main.js"]
CMD ["schedule"]
