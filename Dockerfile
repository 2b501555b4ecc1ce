# One image, two entrypoints: `api` (gunicorn) and `worker` (Celery).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY service ./service
COPY catalog ./catalog
COPY sizing ./sizing
COPY tasks ./tasks
COPY gpu_sizing_cli ./gpu_sizing_cli
COPY clients/python ./clients/python
# The project depends on the partner client (its gpu-sizing command uses it), which is not on an
# index: both are installed from here in one step.
RUN pip install ./clients/python . && useradd --create-home --uid 10001 sizing
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh

USER sizing
# The model's kernels compiled once here, into the user's numba cache (catalog/warm.py), so that
# no API or worker process compiles them at its first request on a machine of this build's CPU
# model (numba keys its cache by CPU; on another, each process compiles once, about 3 s).
RUN python -m catalog.warm
EXPOSE 8000
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["api"]
