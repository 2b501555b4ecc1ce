# One image, two entrypoints: `api` (gunicorn) and `worker` (Celery).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY service ./service
COPY catalog ./catalog
COPY sizing ./sizing
COPY tasks ./tasks
RUN pip install . && useradd --create-home --uid 10001 sizing
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh

USER sizing
EXPOSE 8000
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["api"]
