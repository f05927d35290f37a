# Build once, run the compiled service (npm run build && npm run start:prod).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The embedded default (no DATABASE_URL) keeps its database under ./data, which the node user must own.
RUN mkdir -p /app/data && chown node:node /app/data
EXPOSE 3000
USER node
# The node flags of package.json's config.nodeFlags (docs/decisions.md: a 64 MB young generation).
CMD ["node", "--max-semi-space-size=64", "dist/src/main.js"]
