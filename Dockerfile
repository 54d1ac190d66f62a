# memwise: the API, console and worker in one slim image (no model weights, no build tools).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir --prefix=/install ".[openai,anthropic,mcp]"

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 memwise
COPY --from=build /install /usr/local
USER memwise
WORKDIR /home/memwise
ENV MEMWISE_DATABASE_URL=sqlite:////home/memwise/data/memwise.db \
    PYTHONUNBUFFERED=1
RUN mkdir -p /home/memwise/data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD python -c "import json,sys,urllib.request as u; h=json.load(u.urlopen('http://127.0.0.1:8080/v1/health', timeout=4)); sys.exit(h['status'] != 'ok')"
# One process does the whole job on the embedded database; with PostgreSQL, run API replicas
# with --no-worker and separate `memwise worker` containers (deploy/compose.yaml).
CMD ["memwise", "serve", "--host", "0.0.0.0", "--port", "8080"]
