# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint bench accuracy intervals openapi client worker clean

# The project and its partner client (clients/python, which the gpu-sizing command uses), both
# editable, in one step; then the model's kernels compiled into numba's cache (catalog/warm.py).
$(STAMP): pyproject.toml clients/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ./clients/python -e '.[dev]'
	$(BIN)/python -m catalog.warm
	touch $(STAMP)

install: $(STAMP)

# Embedded: SQLite file under instance/, Celery tasks run in the API process.
run: install
	$(BIN)/flask --app service migrate
	$(BIN)/flask --app service catalog load
	$(BIN)/flask --app service site ensure-key
	$(BIN)/gunicorn -c python:service.gunicorn_conf --bind $(HOST):$(PORT) --workers 1 --threads 4 'service:create_app()'

worker: install
	$(BIN)/celery -A tasks.worker worker --loglevel=INFO

test: install
	bash scripts/install-browser.sh
	bash scripts/install-nginx.sh
	$(BIN)/python -m tests.services_check
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check service catalog sizing tasks gpu_sizing_cli clients/generate.py tests bench

openapi: install
	$(BIN)/flask --app service openapi write --format=yaml openapi.yaml

# The partner client, regenerated from openapi.yaml (after `make openapi`); a test fails when
# the committed one differs.
client: install
	$(BIN)/python clients/generate.py

# The bench's own peer (llm-analysis) goes into the same environment, once.
$(VENV)/.bench-stamp: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

bench: install $(VENV)/.bench-stamp
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# The model against published measurements, each run as its source ran it (bench/accuracy).
accuracy: install
	$(BIN)/python -m bench.accuracy $(ACCURACY_ARGS)

# The prediction intervals' quantiles from the accuracy harness's residuals, written to
# catalog/data/uncertainty.yaml: run after any change to the model or the measurements.
intervals: install
	$(BIN)/python -m bench.accuracy --intervals

clean:
	rm -rf $(VENV) instance .pytest_cache
