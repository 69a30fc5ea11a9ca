# Kodama: the app image. Build and run with PostgreSQL: docker compose up --build
# (docker-compose.yml). Alone it runs on an SQLite file in /data:
#   docker build -t kodama . && docker run -p 8000:8000 -v kodama-data:/data kodama
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    KODAMA_DATA_DIR=/data

# An unprivileged user runs the server; /data holds the SQLite file and the generated
# secret key when DATABASE_URL and SECRET_KEY are not set; /tablebase, compose's volume of
# the Dōbutsu tablebase (docker-compose.yml).
RUN useradd --create-home --uid 10001 kodama \
    && mkdir /data /tablebase \
    && chown kodama:kodama /data /tablebase

WORKDIR /srv/kodama
# Installed as the README does (editable: the app finds migrations/ and static/ beside it).
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY app ./app
COPY bots ./bots
COPY migrations ./migrations
COPY static ./static
RUN pip install -q -e .

USER kodama
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/me', timeout=4)"]

# serve migrates the database first, then serves.
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
