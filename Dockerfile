# syntax=docker/dockerfile:1
# The service as one process per container (WORKERS=1): scale with containers (deploy/kubernetes has
# a horizontal autoscaler), keep the key store in PostgreSQL (DATABASE_URL) once there is more than one.

# The compilers npm needs here: better-sqlite3 (the data sets' store) builds its native module from source.
FROM node:20-bookworm-slim AS toolchain
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

# Compile the TypeScript and check every rule file: an image is never built with a rule problem.
FROM toolchain AS build
COPY package.json package-lock.json ./
COPY clients/typescript/package.json clients/typescript/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY clients clients
COPY engine engine
COPY server server
COPY service service
COPY tools tools
COPY test test
COPY bench bench
COPY rules rules
COPY endpoints endpoints
COPY tables tables
RUN npm run build --silent && node dist/tools/check-rules.js

# The runtime dependencies alone, built for the same platform.
FROM toolchain AS deps
COPY package.json package-lock.json ./
COPY clients/typescript/package.json clients/typescript/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    WORKERS=1 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY package.json package-lock.json ./
COPY --from=build /app/dist/engine dist/engine
COPY --from=build /app/dist/server dist/server
COPY --from=build /app/dist/service dist/service
COPY --from=build /app/dist/tools dist/tools
# The playground's page, script and style are served as written (server/playground.ts reads them here).
COPY server/playground server/playground
COPY rules rules
COPY endpoints endpoints
COPY tables tables
# The endpoint reference: GET /docs/api/<suite>.md, and the recorded answers OpenAPI shows as examples.
COPY docs/api docs/api
# The file key store (used when DATABASE_URL is not set) lives in /data: mount a volume there.
RUN mkdir -p /data && chown node:node /data
USER node
# Fill the start-up caches (parsed YAML and formulas, compiled validators, data set stores, all under
# /tmp) in the image, as the runtime user: a new container then starts from them instead of parsing
# and compiling every rule file again.
RUN node dist/tools/check-rules.js
EXPOSE 8080
CMD ["node", "dist/server/main.js"]
