# Stepwell app image: the FastAPI service with its engines, templates and static files.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

# The app runs from /app (templates/, static/, migrations/ are found beside app/), so it is
# installed in editable mode: dependencies into site-packages, the code left where it is.
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY games ./games
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install -e .

RUN useradd --create-home stepwell && mkdir -p /app/data && chown stepwell /app/data
USER stepwell
EXPOSE 8000

# Migrate, then serve. DATABASE_URL and SECRET_KEY come from the environment.
CMD ["sh", "-c", "python -m app.db.migrate && exec uvicorn app.main:create_app --factory --host 0.0.0.0 --port 8000 --proxy-headers --ws-per-message-deflate false --timeout-graceful-shutdown 15"]
