# Tessera server image (docs/operations.md, "Deploying N instances"). One process per container: scale
# by running more containers behind a load balancer (deploy/compose.yaml), not with --workers.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The admin is the only part that is built; the server runs its TypeScript directly (type stripping).
RUN npm run build:admin && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8055 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8055
# Readiness: the database answers and every system migration has run (GET /server/ready).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT ?? 8055) + '/server/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/tessera", "start", "--workers", "1"]
