"""The production install (deploy/) stood up on this machine and used over HTTPS.

``deploy/install.sh --prefix DIR --no-systemd`` writes every file a server
gets (systemd units, the nginx site, the environment file, the commands in
``usr/local/sbin``) under DIR and starts nothing; it ends with ``check
--deploy --fail-level WARNING`` under the installed environment file and
fails unless that is clean. Installed twice (an upgrade changing nothing),
units checked by ``systemd-analyze verify``. This test then does what
systemd and nginx would do with exactly those files: each unit's ``ExecStart``
is run with its ``EnvironmentFile``, ``WorkingDirectory``, ``UMask`` and
``Nice`` in the clean environment systemd gives it, and Debian's nginx serves
the installed site on loopback ports with a self-signed certificate made here.
Over HTTPS: an organiser signs in, creates an event with online sign-up, two
pairs sign up anonymously, round 1 is paired and started, the table device
opens the game by its short code and logs an entry with the table link, the
result is typed and the public standings read. Then one backup through the
backup unit, a change, the installed restore command, and the standings are
as they were; the access log holds no private link.

Needs PostgreSQL (a database of its own, ``<DATABASE_URL's name>_stack``,
dropped afterwards), Redis (database ``DEPLOY_STACK_REDIS_URL``, else
REDIS_URL's index + 8, emptied before and after) and Debian's nginx (``make
nginx``). Skipped without them, except in CI (``CI_REQUIRE_NGINX``,
``CI_REQUIRE_POSTGRES``, ``CI_REQUIRE_REDIS``), where a missing part fails.
The services run as the user running the test (the units name it): this
machine's Python lives under /root, where a system user cannot run it.
Traffic only to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import datetime
import getpass
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
NAME = "dmpartners"
SERVICES = ("web", "push", "worker", "beat")
CLEAN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
HSTS = "max-age=31536000; includeSubDomains; preload"


def _missing(part: str, ci_variable: str) -> None:
    if os.environ.get(ci_variable):
        pytest.fail(f"the production-stack test must run in CI: {part}")
    pytest.skip(part)


def _stack_urls() -> tuple[str, str]:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        _missing("needs PostgreSQL (DATABASE_URL)", "CI_REQUIRE_POSTGRES")
    redis = os.environ.get("DEPLOY_STACK_REDIS_URL", "")
    if not redis:
        match = re.match(r"^(redis://[^/]+)(?:/(\d+))?$", os.environ.get("REDIS_URL", ""))
        if not match:
            _missing("needs Redis (REDIS_URL)", "CI_REQUIRE_REDIS")
        assert match is not None
        redis = f"{match.group(1)}/{(int(match.group(2) or 0) + 8) % 16}"
    parsed = urlparse(database)
    name = parsed.path.lstrip("/") + "_stack"
    return parsed._replace(path=f"/{name}").geturl(), redis


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.2)
    pytest.fail(f"nothing listens on 127.0.0.1:{port}:\n{log.read_text()[-3000:]}")


def _stop(*procs: subprocess.Popen[bytes]) -> None:
    """SIGTERM to each one's process group at once (as systemd stops a unit:
    KillMode=mixed), SIGKILL to any still there after 20 s."""
    running = [p for p in procs if p.poll() is None]
    for proc in running:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in running:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


# --- the installed files, read as systemd reads them --------------------------------


def read_env_file(path: Path) -> dict[str, str]:
    values = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            values[key.strip()] = value
    return values


def read_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, value = line.split("=", 1)
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


class Stack:
    """The installed files under ``prefix`` and the processes started from them."""

    def __init__(self, prefix: Path, logs: Path) -> None:
        self.prefix = prefix
        self.logs = logs
        self.units = prefix / "etc" / "systemd" / "system"
        self.env_file = prefix / "etc" / NAME / "env"
        self.sbin = prefix / "usr" / "local" / "sbin"
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def unit(self, name: str) -> dict[str, list[str]]:
        return read_unit(self.units / f"{NAME}-{name}")["Service"]

    def unit_process(self, name: str) -> subprocess.Popen[bytes]:
        """Start ``ExecStart`` of the unit ``name`` as systemd would (its user
        must be this one: the test installs for the user running it)."""
        service = self.unit(name)
        assert service["User"] == [getpass.getuser()]
        assert service["EnvironmentFile"] == [str(self.env_file)]
        env = {"PATH": CLEAN_PATH, "LANG": "C.UTF-8", **read_env_file(self.env_file)}
        for assignment in service.get("Environment", []):
            key, value = assignment.split("=", 1)
            env[key] = value
        umask = int(service.get("UMask", ["0022"])[0], 8)
        nice = int(service.get("Nice", ["0"])[0])

        def in_child() -> None:
            os.umask(umask)
            if nice:
                os.nice(nice)

        argv = shlex.split(service["ExecStart"][0])
        assert Path(argv[0]).is_absolute(), argv
        log = self.logs / f"{name}.log"
        proc = subprocess.Popen(
            argv,
            cwd=service["WorkingDirectory"][0],
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=in_child,
        )
        self.procs[name] = proc
        return proc

    def start(self, name: str) -> subprocess.Popen[bytes]:
        proc = self.unit_process(f"{name}.service")
        if name == "web":
            bind = self.unit("web.service")["ExecStart"][0].split("--bind ")[1].split()[0]
            _wait_port(int(bind.rsplit(":", 1)[1]), proc, self.logs / "web.service.log")
        if name == "push":
            port = self.unit("push.service")["ExecStart"][0].split("--port ")[1].split()[0]
            _wait_port(int(port), proc, self.logs / "push.service.log")
        return proc

    def stop(self, *names: str) -> None:
        _stop(*(self.procs.pop(name) for name in names if name in self.procs))

    def command(self, name: str, *args: str, **extra_env: str) -> str:
        """An installed command (``dmpartners-manage`` …), as the operator types it."""
        done = self.attempt(name, *args, **extra_env)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def attempt(self, name: str, *args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.sbin / f"{NAME}-{name}"), *args],
            env={"PATH": CLEAN_PATH, "LANG": "C.UTF-8", **extra_env},
            capture_output=True,
            text=True,
            timeout=120,
        )


def nginx_config(folder: Path, sites: Path) -> Path:
    """Debian's nginx.conf reduced to what a loopback test needs, including the
    installed site as Debian's does (``sites-enabled/*``)."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(
        f"worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 64; }\n"
        "http {\n  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n"
        f"  client_body_temp_path {folder}/body;\n  proxy_temp_path {folder}/proxy;\n"
        f"  fastcgi_temp_path {folder}/fastcgi;\n  uwsgi_temp_path {folder}/uwsgi;\n"
        f"  scgi_temp_path {folder}/scgi;\n  access_log {folder}/access.log;\n"
        f"  include {sites}/*;\n}}\n"
    )
    return conf


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[dict[str, object]]:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    if not nginx:
        _missing("needs Debian's nginx (make nginx)", "CI_REQUIRE_NGINX")
    database_url, redis_url = _stack_urls()
    import psycopg
    import redis

    name = urlparse(database_url).path.lstrip("/")
    admin = urlparse(database_url)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(redis_url).flushdb()

    prefix, logs = tmp_path / "root", tmp_path / "logs"
    logs.mkdir()
    web, https, http, push = _free_port(), _free_port(), _free_port(), _free_port()
    tls = tmp_path / "tls"
    tls.mkdir()
    cert, key = tls / "cert.pem", tls / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    # What the operator writes before the first install; the installer adds
    # the secret key and the rest.
    env_file = prefix / "etc" / NAME / "env"
    env_file.parent.mkdir(parents=True)
    env_file.write_text(
        f"DATABASE_URL={database_url}\nREDIS_URL={redis_url}\n"
        f"SITE_URL=https://127.0.0.1:{https}\nDJANGO_ALLOWED_HOSTS=127.0.0.1\n"
        'DEFAULT_FROM_EMAIL="DM i Partners <tilmelding@127.0.0.1>"\n'
        f"DMP_TLS_CERT={cert}\nDMP_TLS_KEY={key}\n"
        f"DMP_WEB_BIND=127.0.0.1:{web}\nDMP_HTTPS_LISTEN=127.0.0.1:{https}\n"
        f"DMP_HTTP_LISTEN=127.0.0.1:{http}\nDMP_WEB_WORKERS=2\nDMP_BACKUP_KEEP_DAYS=14\n"
        f"DMP_PUSH_BIND=127.0.0.1:{push}\nDMP_PUSH_WORKERS=1\n"
    )
    installed = Stack(prefix, logs)
    try:
        yield {
            "stack": installed,
            "nginx": nginx,
            "ports": {"web": web, "https": https, "http": http},
            "cert": cert,
            "logs": logs,
            "tmp": tmp_path,
        }
    finally:
        # The proxy first: its idle connections would hold gunicorn's graceful stop.
        installed.stop("nginx")
        installed.stop(*installed.procs)
        with contextlib.suppress(Exception):
            redis.Redis.from_url(redis_url).flushdb()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def install(prefix: Path) -> str:
    done = subprocess.run(
        ["sh", str(ROOT / "deploy" / "install.sh"), "--prefix", str(prefix), "--no-systemd"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


class Site:
    """HTTPS to the installed nginx, trusting the test's certificate only."""

    def __init__(self, port: int, cert: Path) -> None:
        import requests

        self.base = f"https://127.0.0.1:{port}"
        self.cert = cert
        self.session = requests.Session()
        # Neither a CA bundle nor a proxy from the environment: this certificate only.
        self.session.trust_env = False
        self.session.verify = str(cert)

    def url(self, path: str) -> str:
        return self.base + path

    def login(self, username: str, password: str) -> None:
        page = self.session.get(self.url("/login/"), timeout=30)
        assert page.status_code == 200
        answer = self.session.post(
            self.url("/login/"),
            data={
                "csrfmiddlewaretoken": self.session.cookies["csrftoken"],
                "username": username,
                "password": password,
            },
            headers={"Referer": self.url("/login/")},
            allow_redirects=False,
            timeout=30,
        )
        assert answer.status_code == 302, answer.text[:2000]

    def api(self, method: str, path: str, body: object = None, expect: int = 200) -> object:
        headers = {"Referer": self.url("/")}
        if "csrftoken" in self.session.cookies:
            headers["X-CSRFToken"] = self.session.cookies["csrftoken"]
        answer = self.session.request(
            method, self.url("/api" + path), json=body, headers=headers, timeout=30
        )
        assert answer.status_code == expect, f"{method} {path}: {answer.status_code} {answer.text}"
        return answer.json() if answer.content else None


def test_installed_stack_serves_an_event_over_https_and_restores_a_backup(stack):
    installed: Stack = stack["stack"]
    ports = stack["ports"]

    # Install, then again (an upgrade changing nothing): the same files and key.
    # Each run ends with `check --deploy --fail-level WARNING` under the
    # installed environment file, and fails unless it is clean.
    first = install(installed.prefix)
    assert "System check identified no issues" in first
    env = read_env_file(installed.env_file)
    assert len(env["DJANGO_SECRET_KEY"]) >= 50
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert stat.S_IMODE(installed.env_file.stat().st_mode) == 0o640
    files = sorted(p for p in installed.prefix.rglob("*") if p.is_file() and "var" not in p.parts)
    before = {p: p.read_bytes() for p in files}
    install(installed.prefix)
    assert {p: p.read_bytes() for p in files} == before
    units = sorted(installed.units.iterdir())
    assert [u.name for u in units] == [
        f"{NAME}-backup.service",
        f"{NAME}-backup.timer",
        f"{NAME}-beat.service",
        f"{NAME}-push.service",
        f"{NAME}-web.service",
        f"{NAME}-worker.service",
    ]
    analyze = shutil.which("systemd-analyze")
    if analyze:
        verified = subprocess.run(
            [analyze, "verify", *map(str, units)], capture_output=True, text=True
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr

    for service in SERVICES:
        installed.start(service)
    sites = installed.prefix / "etc" / "nginx" / "sites-enabled"
    conf = nginx_config(stack["tmp"] / "nginx", sites)
    tested = subprocess.run(
        [stack["nginx"], "-t", "-c", str(conf), "-p", str(conf.parent)],
        capture_output=True,
        text=True,
    )
    assert tested.returncode == 0, tested.stderr
    nginx_log = stack["logs"] / "nginx.log"
    nginx = subprocess.Popen(
        [stack["nginx"], "-c", str(conf), "-p", str(conf.parent), "-g", "daemon off;"],
        stdout=nginx_log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    installed.procs["nginx"] = nginx
    _wait_port(ports["https"], nginx, nginx_log)

    # An organiser account (a first one, made on the server by its operator).
    password = "stack-" + os.urandom(12).hex()
    installed.command(
        "manage",
        "shell",
        "--no-imports",
        "-c",
        "import os; from django.contrib.auth.models import User; User.objects.create_user("
        "'arrangoer', 'arr@example.dk', os.environ['DJANGO_SUPERUSER_PASSWORD'])",
        DJANGO_SUPERUSER_PASSWORD=password,
    )
    organiser = Site(ports["https"], stack["cert"])
    organiser.login("arrangoer", password)

    # The event, with online sign-up.
    today = datetime.date.today()
    event = organiser.api(
        "POST",
        "/tournaments/",
        {
            "name": "Produktionstest",
            "date": (today + datetime.timedelta(days=7)).isoformat(),
            "published": True,
            "swiss_rounds": 1,
            "signup_closes_at": (
                datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=3)
            ).isoformat(),
            "signup_capacity": 8,
        },
        expect=201,
    )
    slug = event["slug"]

    # Two pairs sign up, anonymously, each keeping its private link.
    links = []
    for n, (one, two) in enumerate([("Anna Holm", "Bo Lund"), ("Carl Ry", "Dorte Ek")], 1):
        visitor = Site(ports["https"], stack["cert"])
        answer = visitor.api(
            "POST",
            f"/tournaments/{slug}/signup/",
            {
                "player_1": one,
                "player_2": two,
                "club": "Odense",
                "email": f"par{n}@example.dk",
                "consent": True,
                "client_id": f"stack-signup-{n}",
            },
            expect=201,
        )
        links.append(answer["link"])
    pairs = organiser.api("GET", f"/tournaments/{slug}/pairs/")
    assert len(pairs) == 2
    for pair in pairs:
        organiser.api("POST", f"/pairs/{pair['id']}/check-in/")

    # The event's open pages hear of the round through nginx and the push process.
    stream = _event_stream(ports["https"], stack["cert"], f"/push/event/{slug}/")

    # Round 1: paired, published, started.
    round_1 = organiser.api(
        "POST", f"/tournaments/{slug}/rounds/pair/", {"method": "auto"}, expect=201
    )
    organiser.api("POST", f"/rounds/{round_1['id']}/publish/")
    organiser.api("POST", f"/rounds/{round_1['id']}/start/")
    (game,) = round_1["games"]
    assert '"kind":"pages"' in _next_event(stream)
    stream.close()

    # The score sheets, and the table device: the short code printed on its
    # sheet (read here from the database) opens the table's link.
    sheets = organiser.session.get(
        organiser.url(f"/tournaments/{slug}/rounds/1/score-sheets.pdf"), timeout=60
    )
    assert sheets.status_code == 200 and sheets.content.startswith(b"%PDF")
    code = installed.command(
        "manage",
        "shell",
        "--no-imports",
        "-c",
        f"from games.models import Game; print(Game.objects.get(pk={game['id']}).short_code)",
    ).split()[-1]
    table = Site(ports["https"], stack["cert"])
    opened = table.session.get(table.url(f"/t/?code={code}"), allow_redirects=False, timeout=30)
    assert opened.status_code == 302, opened.text[:500]
    token = opened.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    state = table.api("GET", f"/table/{token}/state/")
    first_entry = next(e for entries in state["legal_entries"].values() for e in entries)
    entry = table.api(
        "POST",
        f"/table/{token}/entries/",
        {"client_id": "stack-table-entry-1", "expected_seq": 0, "text": first_entry},
        expect=201,
    )
    assert entry["state"]["seq"] == 1

    # The result, and the public standings.
    organiser.api(
        "POST",
        f"/games/{game['id']}/result/",
        {"winner": "YB", "locked_yb": 8, "locked_rg": 2, "distance_yb": 0, "distance_rg": 70},
    )
    public = Site(ports["https"], stack["cert"])
    standings = public.session.get(public.url(f"/api/tournaments/{slug}/standings/"), timeout=30)
    assert standings.status_code == 200
    ranked = standings.json()
    assert ranked[0]["pair"]["id"] == game["pair_yb"]["id"] and ranked[0]["rank"] == 1

    # The headers production promises, HSTS once; plain HTTP only redirects.
    assert standings.headers["Strict-Transport-Security"] == HSTS
    assert standings.headers["X-Content-Type-Options"] == "nosniff"
    assert standings.headers["X-Frame-Options"] == "DENY"
    assert standings.headers["Referrer-Policy"] == "same-origin"
    assert standings.headers["Server"] == "nginx"
    page = public.session.get(public.url("/"), timeout=30)
    assert (
        page.status_code == 200
        and "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    )
    css = public.session.get(public.url("/static/css/games.css"), timeout=30)
    assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
    plain = public.session.get(
        f"http://127.0.0.1:{ports['http']}/api/", allow_redirects=False, timeout=30
    )
    assert plain.status_code == 301
    assert plain.headers["Location"] == public.url("/api/")

    # The worker and beat are alive: the health page says so through nginx.
    deadline = time.monotonic() + 45
    while True:
        health = public.session.get(public.url("/health/"), timeout=30)
        if health.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert health.status_code == 200, health.text

    # One backup through the backup unit; a dump past the retention goes.
    backups = installed.prefix / "var" / "backups" / NAME
    stale = backups / f"{NAME}-20000101-000000.dump"
    stale.write_bytes(b"old")
    month_ago = time.time() - 30 * 86400
    os.utime(stale, (month_ago, month_ago))
    backup_unit = installed.unit_process("backup.service")
    assert backup_unit.wait(60) == 0, (stack["logs"] / "backup.service.log").read_text()
    (dump,) = backups.glob(f"{NAME}-*.dump")
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600

    # A change after the backup, then the restore takes it back.
    organiser.api("POST", f"/games/{game['id']}/result/clear/", {"reason": "wrong table"})
    changed = public.session.get(public.url(f"/api/tournaments/{slug}/standings/"), timeout=30)
    assert changed.json() != ranked
    installed.stop(*SERVICES)
    installed.command("restore", str(dump))
    installed.start("web")
    restored = public.session.get(public.url(f"/api/tournaments/{slug}/standings/"), timeout=30)
    assert restored.status_code == 200 and restored.json() == ranked
    assert table.api("GET", f"/table/{token}/state/")["seq"] == 1
    # The restore kept what was there before it, beside the backup.
    assert len(list(backups.glob(f"{NAME}-*.dump"))) == 2
    # A file that is no backup is refused before anything is stopped or changed.
    not_a_dump = stack["tmp"] / "notes.dump"
    not_a_dump.write_text("round 1 results\n")
    refused = installed.attempt("restore", str(not_a_dump))
    assert refused.returncode != 0 and "not a backup" in refused.stderr
    assert len(list(backups.glob(f"{NAME}-*.dump"))) == 2
    again = public.session.get(public.url(f"/api/tournaments/{slug}/standings/"), timeout=30)
    assert again.json() == ranked

    # No private link in the proxy's log: table link, short code, sign-up links.
    access = (installed.prefix / "var" / "log" / "nginx" / f"{NAME}.access.log").read_text()
    assert '"GET /t/ ' in access and "/api/table/[masked]/entries/" in access
    for secret in [token, code, *(link.rstrip("/").rsplit("/", 1)[1] for link in links)]:
        assert secret not in access
    for log in stack["logs"].glob("*.service.log"):
        assert token not in log.read_text()


def _event_stream(port: int, cert: Path, path: str) -> ssl.SSLSocket:
    """An open Server-Sent Events stream through nginx, its answer's head read."""
    context = ssl.create_default_context(cafile=str(cert))
    sock = context.wrap_socket(
        socket.create_connection(("127.0.0.1", port), 10), server_hostname="127.0.0.1"
    )
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 200"), head
    assert b"text/event-stream" in head
    return sock


def _next_event(sock: ssl.SSLSocket) -> str:
    """What the stream sent up to and including its first event (heartbeats pass by)."""
    sock.settimeout(30)
    text = ""
    while '"kind":' not in text:
        chunk = sock.recv(4096).decode()
        assert chunk, "the stream closed"
        text += chunk
    return text
