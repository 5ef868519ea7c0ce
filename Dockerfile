# syntax=docker/dockerfile:1
# The service runs its TypeScript sources directly (Node 24 strips types), so the image needs
# no compile step: one stage installs the production dependencies, the final stage copies
# them with the sources and runs as an unprivileged user.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY schemas ./schemas
COPY openapi ./openapi
COPY config-repo-example ./config-repo-example
COPY data/seed.json ./data/seed.json
# data/ holds clones, SQLite files and scratch repos: writable by the service user only.
RUN chown -R node:node /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# AUTH_TOKEN (or AUTH_TOKEN_FILE) must be provided at run time.
CMD ["node", "src/main.ts"]
