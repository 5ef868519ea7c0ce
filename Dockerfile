# syntax=docker/dockerfile:1
# The service runs its TypeScript sources directly (Node 24 strips types), so the service
# needs no compile step: one stage installs the production dependencies, one builds the web
# UI (Vite and Preact are dev dependencies, left behind in that stage), and the final stage
# copies the dependencies, the sources and the built UI, and runs as an unprivileged user.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS ui
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the UI's build needs only Vite and Preact, none of them built natively.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY ui ./ui
RUN npx vite build ui

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY --from=ui /app/dist/ui ./dist/ui
COPY schemas ./schemas
COPY openapi ./openapi
COPY config-repo-example ./config-repo-example
COPY data/seed.json ./data/seed.json
# data/ holds clones, SQLite files and scratch repos: writable by the service user only.
# The user is given by number (the image's `node` user, 1000:1000), so that Kubernetes can
# check runAsNonRoot without reading /etc/passwd; deploy/kubernetes runs as the same ids.
RUN chown -R 1000:1000 /app/data
USER 1000:1000
EXPOSE 8080
# The probe speaks what the service serves: HTTPS when TLS_CERT_FILE is set, with a client
# certificate when TLS_CLIENT_CA_FILE asks for one.
HEALTHCHECK --interval=15s --timeout=4s --start-period=10s --retries=3 \
  CMD ["node", "src/health-probe.ts", "/health"]
# AUTH_TOKEN (or AUTH_TOKEN_FILE) must be provided at run time.
CMD ["node", "src/main.ts"]
