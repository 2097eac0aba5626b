"""Install, upgrade, back up and restore DM i Partners on one Debian server.

``deploy/install.sh`` runs ``install``; the installer puts three commands in
``/usr/local/sbin`` that call the others with the installation's paths:
``dmpartners-manage`` (manage.py as the service user with the environment
file), ``dmpartners-backup`` (what the backup timer runs) and
``dmpartners-restore FILE``.

Standard library only: it runs with Debian's python3 before the venv exists.
``--prefix DIR`` puts every file under DIR (with DIR in the paths the files
name, so they work where they are) and ``--no-systemd`` starts nothing: the
production-stack test installs that way and runs each unit's ``ExecStart``
itself (tests/deploy/test_production_stack.py). docs/operations.md,
"Production install".
"""

from __future__ import annotations

import argparse
import datetime
import grp
import hashlib
import ipaddress
import os
import pwd
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

NAME = "dmpartners"
APP_DIR = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"
SERVICES = ("web", "push", "worker", "beat")
DEBIAN_PACKAGES = ["nginx", "python3-venv", "gettext", "postgresql-client", "openssl"]
# The environment file must name these before anything is started.
REQUIRED = ("DATABASE_URL", "REDIS_URL", "SITE_URL", "DJANGO_ALLOWED_HOSTS")
# What a command run with the environment file keeps of the caller's
# environment (systemd gives a unit none of it).
PASSED_THROUGH = ("PATH", "LANG", "LC_ALL", "TERM", "TZ")
PASSED_PREFIXES = ("DJANGO_SUPERUSER_",)
CACHE_CLEAR = "from django.core.cache import cache; cache.clear()"
USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
BACKUP_PREFIX = f"{NAME}-"
BACKUP_SUFFIX = ".dump"
# Open pages (push streams) one machine holds (bench/broadcast_load.py).
DEFAULT_PUSH_STREAMS = 10000


# --- the environment file ----------------------------------------------------------


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines as systemd's ``EnvironmentFile=`` reads them: blank
    lines and ``#`` comments skipped, one pair of enclosing quotes removed."""
    values: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")) or "=" not in line:
            continue
        key, value = line.split("=", 1)
        value = value.strip()
        quote = value[:1]
        if len(value) >= 2 and quote in "\"'" and value[-1] == quote:
            value = value[1:-1]
            if quote == '"':
                value = value.replace('\\"', '"').replace("\\\\", "\\")
        values[key.strip()] = value
    return values


def command_environment(env_file: Path) -> dict[str, str]:
    """The environment of a command run for the installation: the file's
    variables over a few of the caller's (locale, PATH), nothing else."""
    base = {
        key: value
        for key, value in os.environ.items()
        if key in PASSED_THROUGH or key.startswith(PASSED_PREFIXES)
    }
    base.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    base.setdefault("LANG", "C.UTF-8")
    return {**base, **read_env_file(env_file)}


def _set_env_value(path: Path, key: str, value: str) -> None:
    """Replace an empty ``KEY=`` line, or add one."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip().split("=", 1)[0].strip() == key:
            lines[i] = f"{key}={value}"
            break
    else:
        lines.append(f"{key}={value}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- running things ----------------------------------------------------------------


class Layout:
    """Where the installation's files are (every path under ``prefix``)."""

    def __init__(self, prefix: str, user: str, venv: Path | None) -> None:
        root = Path(prefix) if prefix else Path("/")
        self.prefix = prefix
        self.etc = root / "etc" / NAME
        self.env_file = self.etc / "env"
        self.tls_dir = self.etc / "tls"
        self.state = root / "var" / "lib" / NAME
        self.backups = root / "var" / "backups" / NAME
        self.units = root / "etc" / "systemd" / "system"
        self.nginx = root / "etc" / "nginx"
        self.nginx_logs = root / "var" / "log" / "nginx"
        self.acme_root = root / "var" / "www" / "letsencrypt"
        self.sbin = root / "usr" / "local" / "sbin"
        self.venv = venv or APP_DIR / ".venv"
        self.python = self.venv / "bin" / "python"
        self.user = user


def current_user() -> str:
    return pwd.getpwuid(os.geteuid()).pw_name


def run(cmd: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
    print("+ " + shlex.join(cmd), flush=True)
    return subprocess.run(cmd, check=True, **options)


def as_user(user: str) -> dict[str, Any]:
    """subprocess options that run a command as ``user`` (when root)."""
    if os.geteuid() != 0 or user == current_user():
        return {}
    entry = pwd.getpwnam(user)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def manage(layout: Layout, *args: str, user: str | None = None) -> None:
    """manage.py with the environment file, as ``user`` (the service user by default)."""
    env = command_environment(layout.env_file)
    env["HOME"] = str(layout.state)
    options = as_user(user or layout.user)
    run([str(layout.python), str(APP_DIR / "manage.py"), *args], cwd=APP_DIR, env=env, **options)


def _chown(path: Path, user: str, group: str | None = None) -> None:
    if os.geteuid() == 0:
        shutil.chown(path, user, group or grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name)


# --- install -----------------------------------------------------------------------


def install_packages(env: dict[str, str]) -> None:
    packages = list(DEBIAN_PACKAGES)
    local_db = env.get("DATABASE_URL", "") == ""
    if local_db:
        packages += ["postgresql", "redis-server"]
    run(["apt-get", "update", "-qq"])
    run(
        ["apt-get", "install", "-y", "-qq", *packages],
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def create_user(user: str, layout: Layout) -> None:
    try:
        pwd.getpwnam(user)
    except KeyError:
        run(
            [
                *("adduser", "--system", "--group", "--no-create-home"),
                *("--home", str(layout.state), "--shell", "/usr/sbin/nologin", user),
            ]
        )


def local_database(layout: Layout) -> None:
    """One server: a PostgreSQL role and database of the service user (peer
    authentication over the socket, no password) and the local Redis."""
    user = layout.user
    # The name is checked (USER_NAME) before it gets here.
    check = f"SELECT 1 FROM pg_roles WHERE rolname = '{user}'"  # noqa: S608
    found = subprocess.run(
        ["runuser", "-u", "postgres", "--", "psql", "-tAc", check],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if found != "1":
        run(["runuser", "-u", "postgres", "--", "createuser", user])
        run(["runuser", "-u", "postgres", "--", "createdb", "-O", user, NAME])
    _set_env_value(layout.env_file, "DATABASE_URL", f"postgres:///{NAME}")
    if not read_env_file(layout.env_file).get("REDIS_URL"):
        _set_env_value(layout.env_file, "REDIS_URL", "redis://127.0.0.1:6379/0")


def write_env_file(layout: Layout) -> dict[str, str]:
    """Create the environment file from the example on the first install;
    give it a secret key when it has none. Never changes a value it finds."""
    layout.etc.mkdir(parents=True, exist_ok=True)
    if not layout.env_file.exists():
        text = (TEMPLATES / "env.example").read_text(encoding="utf-8")
        text = text.replace("@STATE_DIR@", str(layout.state))
        layout.env_file.write_text(text, encoding="utf-8")
        print(f"wrote {layout.env_file}: fill in SITE_URL, DJANGO_ALLOWED_HOSTS and email")
    values = read_env_file(layout.env_file)
    if not values.get("DJANGO_SECRET_KEY"):
        _set_env_value(layout.env_file, "DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
        print(f"generated DJANGO_SECRET_KEY in {layout.env_file}")
    for key, default in (
        ("DJANGO_SETTINGS_MODULE", "config.settings.production"),
        ("VAR_DIR", str(layout.state)),
    ):
        if key not in values:
            _set_env_value(layout.env_file, key, default)
    os.chmod(layout.env_file, 0o640)
    _chown(layout.env_file, "root" if os.geteuid() == 0 else layout.user, _group(layout.user))
    return read_env_file(layout.env_file)


def _group(user: str) -> str:
    return grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name


def check_env(layout: Layout, env: dict[str, str]) -> None:
    missing = [key for key in REQUIRED if not env.get(key)]
    if missing:
        sys.exit(f"{layout.env_file}: set {', '.join(missing)}, then run the installer again")
    if not env["DATABASE_URL"].startswith(("postgres://", "postgresql://")):
        sys.exit(f"{layout.env_file}: DATABASE_URL must name a PostgreSQL database")
    if not env["SITE_URL"].startswith("https://"):
        sys.exit(f"{layout.env_file}: SITE_URL must be the https:// address of the site")
    if (urlparse(env["SITE_URL"]).hostname or "").endswith("example.dk"):
        sys.exit(f"{layout.env_file}: SITE_URL is still the example's; set the site's address")


def make_venv(layout: Layout) -> None:
    """The venv, and the pinned requirements whenever requirements.txt changed."""
    if not layout.python.exists():
        run(["python3", "-m", "venv", str(layout.venv)])
    requirements = APP_DIR / "requirements.txt"
    digest = hashlib.sha256(requirements.read_bytes()).hexdigest()
    stamp = layout.state / "requirements.sha256"
    if stamp.exists() and stamp.read_text().strip() == digest:
        return
    pip = [str(layout.python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run([*pip, "-r", str(requirements)])
    stamp.write_text(digest + "\n")


def make_dirs(layout: Layout) -> None:
    for path, mode in ((layout.state, 0o750), (layout.backups, 0o700)):
        path.mkdir(parents=True, exist_ok=True)
        os.chmod(path, mode)
        _chown(path, layout.user)
    for path in (layout.units, layout.nginx / "sites-available", layout.nginx / "sites-enabled"):
        path.mkdir(parents=True, exist_ok=True)
    for path in (layout.sbin, layout.acme_root, layout.nginx_logs):
        path.mkdir(parents=True, exist_ok=True)


def tls_files(layout: Layout, env: dict[str, str], host: str) -> tuple[str, str]:
    """The certificate nginx serves: ``DMP_TLS_CERT``/``DMP_TLS_KEY``, by default
    Let's Encrypt's for the site's host. Until it exists, a self-signed one so
    nginx starts and certbot can answer its challenge on port 80."""
    cert = env.get("DMP_TLS_CERT") or f"/etc/letsencrypt/live/{host}/fullchain.pem"
    key = env.get("DMP_TLS_KEY") or f"/etc/letsencrypt/live/{host}/privkey.pem"
    if Path(cert).exists() and Path(key).exists():
        return cert, key
    layout.tls_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(layout.tls_dir, 0o700)
    cert_path, key_path = layout.tls_dir / "selfsigned.pem", layout.tls_dir / "selfsigned.key"
    if not cert_path.exists():
        run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825"),
                *("-subj", f"/CN={host}", "-addext", f"subjectAltName={_san(host)}"),
                *("-keyout", str(key_path), "-out", str(cert_path)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    print(f"WARNING: no certificate at {cert}: serving a self-signed one until certbot makes it")
    return str(cert_path), str(key_path)


def _san(host: str) -> str:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return f"DNS:{host}"
    return f"IP:{host}"


def hsts_directive(env: dict[str, str]) -> str:
    """Django's HSTS header (config/settings/production.py) as an nginx directive,
    so the proxy's own answers (a 502 during a restart) carry the same one."""
    seconds = int(env.get("DJANGO_SECURE_HSTS_SECONDS") or 60 * 60 * 24 * 365)
    if seconds <= 0:
        return "# HSTS off (DJANGO_SECURE_HSTS_SECONDS=0)"
    value = f"max-age={seconds}; includeSubDomains; preload"
    return f'add_header Strict-Transport-Security "{value}" always;'


def render(template: str, values: dict[str, str]) -> str:
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    unfilled = sorted(set(re.findall(r"@([A-Z_]+)@", text)))
    if unfilled:
        raise SystemExit(f"{template}: no value for {', '.join(unfilled)}")
    return text


def listen_lines(addresses: str, options: str) -> str:
    """nginx ``listen`` directives, one per address (``443 [::]:443``)."""
    lines = [" ".join(["listen", address, *options.split()]) + ";" for address in addresses.split()]
    return "\n    ".join(lines)


def write_if_changed(path: Path, text: str, mode: int = 0o644) -> bool:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    os.chmod(path, mode)
    return True


def push_streams(env: dict[str, str]) -> int:
    """How many open pages (push streams) one machine should hold: ``DMP_PUSH_STREAMS``."""
    return int(env.get("DMP_PUSH_STREAMS") or DEFAULT_PUSH_STREAMS)


def nginx_limits(streams: int) -> dict[str, int]:
    # A stream is two connections (browser, push process), all may go to one worker;
    # each connection is an open file, and so are the logs. 4,096 for the pages.
    connections = 2 * streams + 4096
    return {"worker_connections": connections, "worker_rlimit_nofile": 2 * connections}


def tune_nginx_conf(text: str, streams: int) -> str:
    """Debian's ``nginx.conf`` with worker_connections, worker_rlimit_nofile raised."""
    note = f"  # {NAME}: {streams} push streams per machine (DMP_PUSH_STREAMS)"
    for name, wanted in nginx_limits(streams).items():
        found = re.search(rf"^([ \t]*){name}\s+(\d+)\s*;.*$", text, re.MULTILINE)
        if found:
            line = f"{found.group(1)}{name} {max(wanted, int(found.group(2)))};{note}"
            text = text[: found.start()] + line + text[found.end() :]
            continue
        events = name == "worker_connections"
        indent, anchor = ("\t", r"^events\s*\{") if events else ("", "^worker_processes")
        after = re.search(anchor + r"[^\n]*$", text, re.MULTILINE)
        if after is None:
            raise SystemExit(f"nginx.conf: no place for {name} (docs/push.md)")
        text = f"{text[: after.end()]}\n{indent}{name} {wanted};{note}{text[after.end() :]}"
    return text


def write_nginx_limits(layout: Layout, env: dict[str, str]) -> None:
    conf = layout.nginx / "nginx.conf"
    if conf.exists():
        write_if_changed(conf, tune_nginx_conf(conf.read_text("utf-8"), push_streams(env)))
    else:
        print(f"WARNING: no {conf}: nginx keeps its worker_connections (docs/push.md)")


def write_files(layout: Layout, env: dict[str, str], args: argparse.Namespace) -> None:
    host = urlparse(env["SITE_URL"]).hostname or "localhost"
    cert, key = tls_files(layout, env, host)
    prefix_args = ["--prefix", layout.prefix] if layout.prefix else []
    tool = [str(layout.python), str(Path(__file__).resolve())]
    common = {"--user": layout.user, "--venv": str(layout.venv)}
    tool_args = [*prefix_args, *(x for kv in common.items() for x in kv)]
    push_bind = env.get("DMP_PUSH_BIND") or "127.0.0.1:8001"
    values = {
        "APP_DIR": str(APP_DIR),
        "VENV": str(layout.venv),
        "ENV_FILE": str(layout.env_file),
        "STATE_DIR": str(layout.state),
        "BACKUP_DIR": str(layout.backups),
        "USER": layout.user,
        "GROUP": _group(layout.user),
        "WEB_BIND": env.get("DMP_WEB_BIND") or "127.0.0.1:8000",
        "WEB_WORKERS": env.get("DMP_WEB_WORKERS") or str(2 * (os.cpu_count() or 1)),
        "PUSH_BIND": push_bind,
        "PUSH_HOST": push_bind.rsplit(":", 1)[0],
        "PUSH_PORT": push_bind.rsplit(":", 1)[1],
        "PUSH_WORKERS": env.get("DMP_PUSH_WORKERS") or str(os.cpu_count() or 1),
        # One process may be handed every stream (they share the listening socket).
        "PUSH_NOFILE": str(max(65536, 2 * push_streams(env))),
        "WORKER_CONCURRENCY": env.get("DMP_WORKER_CONCURRENCY") or "2",
        "BACKUP_KEEP_DAYS": env.get("DMP_BACKUP_KEEP_DAYS") or "14",
        "BACKUP_ON_CALENDAR": env.get("DMP_BACKUP_ON_CALENDAR") or "hourly",
        "BACKUP_COMMAND": shlex.join([*tool, "backup", *tool_args]),
        "SERVER_NAME": host,
        "SITE_URL": env["SITE_URL"].rstrip("/"),
        "HTTPS_LISTEN": listen_lines(env.get("DMP_HTTPS_LISTEN") or "443 [::]:443", "ssl http2"),
        "HTTP_LISTEN": listen_lines(env.get("DMP_HTTP_LISTEN") or "80 [::]:80", ""),
        "TLS_CERT": cert,
        "TLS_KEY": key,
        "HSTS": hsts_directive(env),
        "NGINX_LOG_DIR": str(layout.nginx_logs),
        "ACME_ROOT": str(layout.acme_root),
    }
    for unit in [*(f"{NAME}-{s}.service" for s in SERVICES), f"{NAME}-backup.service"]:
        write_if_changed(layout.units / unit, render(unit, values))
    write_if_changed(layout.units / f"{NAME}-backup.timer", render(f"{NAME}-backup.timer", values))
    site = layout.nginx / "sites-available" / f"{NAME}.conf"
    write_if_changed(site, render("nginx-site.conf", values))
    write_nginx_limits(layout, env)
    enabled = layout.nginx / "sites-enabled" / f"{NAME}.conf"
    serves_web = f"{NAME}-web.service" in machine_units(env)[0]
    if serves_web and not enabled.is_symlink():
        enabled.symlink_to(site)
    elif not serves_web and enabled.is_symlink():
        enabled.unlink()
    mode = ["--no-systemd"] if args.no_systemd else []
    for command, sub in (("manage", "manage"), ("backup", "backup"), ("restore", "restore")):
        script = "#!/bin/sh\n# Written by deploy/install.sh (docs/operations.md).\n"
        script += f'exec {shlex.join([*tool, sub, *tool_args, *mode])} "$@"\n'
        write_if_changed(layout.sbin / f"{NAME}-{command}", script, 0o755)


def machine_units(env: dict[str, str]) -> tuple[list[str], list[str]]:
    """The units this machine runs (``DMP_SERVICES``: web, worker, beat,
    backup; all four by default) and the ones it does not. The push
    processes go with the web ones (nginx sends /push/ to them)."""
    wanted = (env.get("DMP_SERVICES") or " ".join([*SERVICES, "backup"])).split()
    if "web" in wanted:
        wanted.append("push")
    every = {f"{NAME}-{s}.service": s in wanted for s in SERVICES}
    every[f"{NAME}-backup.timer"] = "backup" in wanted
    return [u for u, on in every.items() if on], [u for u, on in every.items() if not on]


def systemd_enable(env: dict[str, str], restart: bool) -> None:
    units, others = machine_units(env)
    run(["systemctl", "daemon-reload"])
    if others:
        run(["systemctl", "disable", "--now", *others])
    run(["systemctl", "enable", *units])
    run(["systemctl", "restart" if restart else "start", *units])
    if f"{NAME}-web.service" in units:
        run(["nginx", "-t"])
        run(["systemctl", "reload-or-restart", "nginx"])
    # Debian's journald keeps the journal across reboots once this folder exists.
    journal = Path("/var/log/journal")
    if not journal.exists():
        journal.mkdir()
        run(["systemd-tmpfiles", "--create", "--prefix", str(journal)])
        run(["journalctl", "--flush"])


def install(args: argparse.Namespace) -> None:
    if not args.prefix and os.geteuid() != 0:
        sys.exit("run the installer as root (sudo deploy/install.sh)")
    user = args.user or (current_user() if args.prefix else NAME)
    layout = Layout(args.prefix, user, Path(args.venv) if args.venv else None)
    if not args.prefix:
        create_user(user, layout)
    make_dirs(layout)
    env = write_env_file(layout)
    if not args.no_packages and not args.prefix:
        install_packages(env)
        if not env.get("DATABASE_URL"):
            local_database(layout)
            env = read_env_file(layout.env_file)
    check_env(layout, env)
    upgrade = (layout.units / f"{NAME}-web.service").exists()
    make_venv(layout)
    # The catalogues are part of the code (root's); the rest is the service user's.
    manage(layout, "compilemessages_if_needed", user=current_user())
    manage(layout, "migrate", "--noinput")
    manage(layout, "collectstatic", "--noinput", "--verbosity", "0")
    manage(layout, "check", "--deploy", "--fail-level", "WARNING")
    write_files(layout, env, args)
    if args.no_systemd:
        print("installed; --no-systemd: nothing started")
        return
    systemd_enable(env, restart=upgrade)
    print(f"{'upgraded' if upgrade else 'installed'}: {env['SITE_URL']}")


# --- backup and restore ------------------------------------------------------------


def backup(args: argparse.Namespace) -> Path:
    """One PostgreSQL dump (custom format, owner-only), then every dump older
    than ``--keep-days`` removed. Prints the new file's path."""
    layout = Layout(args.prefix, args.user or current_user(), Path(args.venv))
    env = command_environment(layout.env_file)
    folder = Path(args.to) if args.to else layout.backups
    keep_days = int(
        args.keep_days or read_env_file(layout.env_file).get("DMP_BACKUP_KEEP_DAYS") or 14
    )
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    target = folder / f"{BACKUP_PREFIX}{stamp}{BACKUP_SUFFIX}"
    # Never over an existing dump: a restore's own safety dump, made in the
    # same second as the dump being restored, would replace it.
    extra = 1
    while target.exists():
        target = folder / f"{BACKUP_PREFIX}{stamp}-{extra}{BACKUP_SUFFIX}"
        extra += 1
    partial = target.with_suffix(".partial")
    os.umask(0o077)
    cmd = ["pg_dump", "--format=custom", "--no-owner", "--file", str(partial), env["DATABASE_URL"]]
    subprocess.run(cmd, check=True, env=env, **as_user(layout.user))
    partial.rename(target)
    cutoff = time.time() - keep_days * 86400
    for old in folder.glob(f"{BACKUP_PREFIX}*{BACKUP_SUFFIX}"):
        if old.stat().st_mtime < cutoff:
            old.unlink()
            print(f"removed {old} (older than {keep_days} days)")
    print(target)
    return target


def restore(args: argparse.Namespace) -> None:
    """Stop the services, keep a dump of what is there now, restore ``file``
    over it in one transaction, migrate, empty the cache, start them again."""
    layout = Layout(args.prefix, args.user or current_user(), Path(args.venv))
    env = command_environment(layout.env_file)
    dump = Path(args.file).resolve()
    listing = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True)
    if listing.returncode != 0:
        sys.exit(f"{dump}: not a backup made by {NAME}-backup (pg_dump --format=custom)")
    units = [u for u in machine_units(read_env_file(layout.env_file))[0] if "backup" not in u]
    if not args.no_systemd:
        run(["systemctl", "stop", *units])
    before = backup(
        argparse.Namespace(
            prefix=args.prefix, user=args.user, venv=args.venv, to=None, keep_days=None
        )
    )
    print(f"the database as it was before the restore: {before}")
    # Read by root and handed over on standard input: the file may be one the
    # service user cannot open (a copy brought back from elsewhere).
    with dump.open("rb") as archive:
        run(
            [
                *("pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges"),
                *("--single-transaction", "--dbname", env["DATABASE_URL"]),
            ],
            env=env,
            stdin=archive,
            **as_user(layout.user),
        )
    manage(layout, "migrate", "--noinput")
    # Cached pages and replays describe the database as it was.
    manage(layout, "shell", "--no-imports", "-c", CACHE_CLEAR)
    if not args.no_systemd:
        run(["systemctl", "start", *units])
    print(f"restored {dump}")


def manage_command(args: argparse.Namespace) -> None:
    layout = Layout(args.prefix, args.user or current_user(), Path(args.venv))
    env = command_environment(layout.env_file)
    env["HOME"] = str(layout.state)
    cmd = [str(layout.python), str(APP_DIR / "manage.py"), *args.rest]
    sys.exit(subprocess.run(cmd, cwd=APP_DIR, env=env, **as_user(layout.user)).returncode)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="dmpdeploy", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("install", "backup", "restore", "manage"):
        sub = commands.add_parser(name)
        sub.add_argument("--prefix", default="", help="put every file under this folder")
        sub.add_argument("--user", default="", help=f"the service user (default {NAME})")
        sub.add_argument("--venv", default="", help="the venv (default .venv of the checkout)")
        sub.add_argument("--no-systemd", action="store_true", help="start and stop nothing")
        if name == "install":
            sub.add_argument("--no-packages", action="store_true", help="no apt-get")
        if name == "backup":
            sub.add_argument("--to", default="", help="folder (default /var/backups/dmpartners)")
            sub.add_argument("--keep-days", default="", help="remove older dumps (default 14)")
        if name == "restore":
            sub.add_argument("file", help="a dump made by dmpartners-backup")
        if name == "manage":
            sub.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.user and not USER_NAME.match(args.user):
        parser.error(f"--user: not a user name: {args.user!r}")
    if args.command != "install" and not args.venv:
        args.venv = str(APP_DIR / ".venv")
    {"install": install, "backup": backup, "restore": restore, "manage": manage_command}[
        args.command
    ](args)


if __name__ == "__main__":
    main()
