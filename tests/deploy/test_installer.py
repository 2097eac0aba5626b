"""The installer's pieces without a server: the environment file, the
templates, which units a machine runs (deploy/dmpdeploy.py)."""

from __future__ import annotations

import importlib.util
import os
import pwd
import re
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("dmpdeploy", ROOT / "deploy" / "dmpdeploy.py")
assert _spec is not None and _spec.loader is not None
dmpdeploy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dmpdeploy)

USER = pwd.getpwuid(os.geteuid()).pw_name


def test_environment_file_is_read_as_systemd_reads_it(tmp_path):
    env_file = tmp_path / "env"
    env_file.write_text(
        "# a comment\n\n"
        'DEFAULT_FROM_EMAIL="DM i Partners <tilmelding@example.dk>"\n'
        "EMAIL_URL='smtp+tls://u:p$w@mail.example.dk:587'\n"
        'QUOTED="say \\"hi\\""\n'
        "  SPACED = value  \n"
        "SITE_URL=https://first.example.dk\n"
        "SITE_URL=https://dm.example.dk\n"
        "not a pair\n"
    )
    assert dmpdeploy.read_env_file(env_file) == {
        "DEFAULT_FROM_EMAIL": "DM i Partners <tilmelding@example.dk>",
        "EMAIL_URL": "smtp+tls://u:p$w@mail.example.dk:587",
        "QUOTED": 'say "hi"',
        "SPACED": "value",
        "SITE_URL": "https://dm.example.dk",
    }


def test_a_commands_environment_is_the_file_over_a_few_of_the_callers(tmp_path, monkeypatch):
    env_file = tmp_path / "env"
    env_file.write_text("DJANGO_SETTINGS_MODULE=config.settings.production\n")
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings.test")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///elsewhere")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "from-the-operator")
    env = dmpdeploy.command_environment(env_file)
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert "DATABASE_URL" not in env
    assert env["DJANGO_SUPERUSER_PASSWORD"] == "from-the-operator"


def test_the_environment_file_gets_a_secret_key_once_and_keeps_every_value(tmp_path):
    layout = dmpdeploy.Layout(str(tmp_path), USER, None)
    layout.etc.mkdir(parents=True)
    layout.env_file.write_text("SITE_URL=https://dm.example.dk\nDJANGO_SECRET_KEY=\n")
    first = dmpdeploy.write_env_file(layout)
    key = first["DJANGO_SECRET_KEY"]
    assert len(key) >= 50
    assert first["SITE_URL"] == "https://dm.example.dk"
    assert first["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert first["VAR_DIR"] == str(tmp_path / "var" / "lib" / "dmpartners")
    assert stat.S_IMODE(layout.env_file.stat().st_mode) == 0o640
    assert dmpdeploy.write_env_file(layout) == first
    assert layout.env_file.read_text().count("DJANGO_SECRET_KEY=") == 1


def test_a_new_environment_file_comes_from_the_example_and_stops_the_install(tmp_path):
    layout = dmpdeploy.Layout(str(tmp_path), USER, None)
    env = dmpdeploy.write_env_file(layout)
    assert env["DJANGO_SECRET_KEY"]
    with pytest.raises(SystemExit, match="DATABASE_URL"):
        dmpdeploy.check_env(layout, env)
    env = {**env, "DATABASE_URL": "postgres:///dmpartners", "REDIS_URL": "redis://x/0"}
    with pytest.raises(SystemExit, match="still the example"):
        dmpdeploy.check_env(layout, env)
    with pytest.raises(SystemExit, match="https://"):
        dmpdeploy.check_env(layout, {**env, "SITE_URL": "http://dm.dansk-partners.dk"})
    dmpdeploy.check_env(layout, {**env, "SITE_URL": "https://dm.dansk-partners.dk"})


def test_hsts_is_djangos_value_or_nothing():
    assert dmpdeploy.hsts_directive({}) == (
        'add_header Strict-Transport-Security "max-age=31536000; includeSubDomains; preload" '
        "always;"
    )
    assert "add_header" not in dmpdeploy.hsts_directive({"DJANGO_SECURE_HSTS_SECONDS": "0"})


def test_every_template_is_filled_and_a_missing_value_refused():
    templates = sorted(p.name for p in dmpdeploy.TEMPLATES.iterdir() if p.name != "env.example")
    placeholders = set()
    for name in templates:
        placeholders |= set(re.findall(r"@([A-Z_]+)@", (dmpdeploy.TEMPLATES / name).read_text()))
    values = {key: f"/x/{key.lower()}" for key in placeholders}
    for name in templates:
        assert "@" not in dmpdeploy.render(name, values)
    with pytest.raises(SystemExit, match="WEB_BIND"):
        dmpdeploy.render("nginx-site.conf", {k: v for k, v in values.items() if k != "WEB_BIND"})


def test_a_machine_runs_the_services_it_names():
    units, others = dmpdeploy.machine_units({})
    assert units == [
        "dmpartners-web.service",
        "dmpartners-push.service",
        "dmpartners-worker.service",
        "dmpartners-beat.service",
        "dmpartners-backup.timer",
    ]
    assert others == []
    units, others = dmpdeploy.machine_units({"DMP_SERVICES": "worker"})
    assert units == ["dmpartners-worker.service"]
    assert set(others) == {
        "dmpartners-web.service",
        "dmpartners-push.service",
        "dmpartners-beat.service",
        "dmpartners-backup.timer",
    }


def test_a_user_name_that_is_not_one_is_refused():
    with pytest.raises(SystemExit):
        dmpdeploy.main(["backup", "--user", "x'; DROP ROLE postgres; --"])


def _written(tmp_path, **env):
    layout = dmpdeploy.Layout(str(tmp_path), USER, None)
    dmpdeploy.make_dirs(layout)
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text("certificate")
    key.write_text("key")
    values = {
        "SITE_URL": "https://dm.dansk-partners.dk",
        "DMP_TLS_CERT": str(cert),
        "DMP_TLS_KEY": str(key),
        **env,
    }
    dmpdeploy.write_files(layout, values, dmpdeploy.argparse.Namespace(no_systemd=True))
    return layout


def test_the_files_name_the_installations_paths_and_the_commands_run(tmp_path):
    layout = _written(tmp_path)
    web = (layout.units / "dmpartners-web.service").read_text()
    assert f"EnvironmentFile={layout.env_file}" in web
    assert f"ReadWritePaths={layout.state}" in web
    assert "--bind 127.0.0.1:8000 --worker-class gthread" in web
    site = (layout.nginx / "sites-enabled" / "dmpartners.conf").read_text()
    assert "server_name dm.dansk-partners.dk;" in site
    assert "listen [::]:443 ssl http2;" in site
    assert f"ssl_certificate {tmp_path / 'cert.pem'};" in site
    push = (layout.units / "dmpartners-push.service").read_text()
    assert "uvicorn config.asgi:application --host 127.0.0.1 --port 8001" in push
    assert "server 127.0.0.1:8001;" in site
    stream = site.split("location /push/ {", 1)[1].split("}", 1)[0]
    assert "proxy_pass http://dmpartners_push;" in stream
    assert "proxy_buffering off;" in stream
    for command in ("manage", "backup", "restore"):
        path = layout.sbin / f"dmpartners-{command}"
        assert path.stat().st_mode & stat.S_IXUSR
        assert f"--prefix {tmp_path}" in path.read_text()
        assert "--no-systemd" in path.read_text()


def test_a_machine_without_the_web_service_has_no_site(tmp_path):
    layout = _written(tmp_path)
    enabled = layout.nginx / "sites-enabled" / "dmpartners.conf"
    assert enabled.is_symlink()
    _written(tmp_path, DMP_SERVICES="worker")
    assert not enabled.exists() and not enabled.is_symlink()


def test_two_backups_in_one_second_keep_both_files(tmp_path, monkeypatch):
    """A restore makes a safety dump first; made in the same second as the dump
    being restored, it must not replace that file."""
    env_file = tmp_path / "etc" / "dmpartners" / "env"
    env_file.parent.mkdir(parents=True)
    env_file.write_text("DATABASE_URL=postgres://127.0.0.1/none\n", encoding="utf-8")
    folder = tmp_path / "backups"
    folder.mkdir()
    dumps = iter([b"first", b"second"])

    def pg_dump(cmd, **_options):  # type: ignore[no-untyped-def]
        Path(cmd[cmd.index("--file") + 1]).write_bytes(next(dumps))

    class Frozen(dmpdeploy.datetime.datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def]
            return dmpdeploy.datetime.datetime(2026, 5, 1, 9, 0, 0, tzinfo=tz)

    monkeypatch.setattr(dmpdeploy.subprocess, "run", pg_dump)
    monkeypatch.setattr(dmpdeploy.datetime, "datetime", Frozen)
    args = dmpdeploy.argparse.Namespace(
        prefix=str(tmp_path), user=USER, venv=str(tmp_path / "venv"), to=str(folder), keep_days=14
    )
    first = dmpdeploy.backup(args)
    second = dmpdeploy.backup(args)
    assert first != second
    assert first.read_bytes() == b"first" and second.read_bytes() == b"second"


# Debian bookworm's /etc/nginx/nginx.conf as the package installs it (abridged http block).
DEBIAN_NGINX_CONF = """user www-data;
worker_processes auto;
pid /run/nginx.pid;
include /etc/nginx/modules-enabled/*.conf;

events {
\tworker_connections 768;
\t# multi_accept on;
}

http {
\tsendfile on;
\ttcp_nopush on;
\ttypes_hash_max_size 2048;
\tinclude /etc/nginx/mime.types;
\tdefault_type application/octet-stream;
\taccess_log /var/log/nginx/access.log;
\terror_log /var/log/nginx/error.log;
\tgzip on;
\tinclude /etc/nginx/conf.d/*.conf;
\tinclude /etc/nginx/sites-enabled/*;
}
"""


def _nginx_directives(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """The main context's simple directives and the events block's, by name."""
    main: dict[str, str] = {}
    events: dict[str, str] = {}
    depth, block = 0, ""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.endswith("{"):
            depth, block = depth + 1, line.split()[0] if depth == 0 else block
        elif line == "}":
            depth -= 1
        elif line.endswith(";") and depth in (0, 1):
            name, _, value = line[:-1].partition(" ")
            if depth == 0:
                main[name] = value.strip()
            elif block == "events":
                events[name] = value.strip()
    return main, events


def _installed_over_debians_nginx(tmp_path, conf=DEBIAN_NGINX_CONF, **env):
    (tmp_path / "etc" / "nginx").mkdir(parents=True)
    (tmp_path / "etc" / "nginx" / "nginx.conf").write_text(conf)
    layout = _written(tmp_path, **env)
    return layout, (layout.nginx / "nginx.conf").read_text()


def test_nginx_and_the_push_unit_hold_ten_thousand_streams_per_machine(tmp_path):
    layout, conf = _installed_over_debians_nginx(tmp_path)
    main, events = _nginx_directives(conf)
    # Each held stream is two of nginx's connections (the browser's, the push
    # process's), and one worker may be handed all of them.
    assert int(events["worker_connections"]) >= 2 * 10_000
    assert int(main["worker_rlimit_nofile"]) >= int(events["worker_connections"])
    assert main["worker_processes"] == "auto"
    # The rest of Debian's file is kept as it was.
    assert "include /etc/nginx/sites-enabled/*;" in conf
    assert "include /etc/nginx/modules-enabled/*.conf;" in conf
    assert conf.count("worker_connections") == 1
    push = (layout.units / "dmpartners-push.service").read_text()
    limit = re.search(r"^LimitNOFILE=(\d+)$", push, re.MULTILINE)
    assert limit is not None and int(limit.group(1)) >= 10_000 + 1024
    # Installing again changes nothing.
    _written(tmp_path)
    assert (layout.nginx / "nginx.conf").read_text() == conf


def test_nginx_limits_follow_the_streams_asked_and_are_never_lowered(tmp_path):
    _layout, conf = _installed_over_debians_nginx(tmp_path, DMP_PUSH_STREAMS="30000")
    main, events = _nginx_directives(conf)
    assert int(events["worker_connections"]) >= 60_000
    assert int(main["worker_rlimit_nofile"]) >= int(events["worker_connections"])
    generous = DEBIAN_NGINX_CONF.replace("worker_connections 768;", "worker_connections 90000;")
    generous = generous.replace("pid /run", "worker_rlimit_nofile 200000;\npid /run")
    main, events = _nginx_directives(dmpdeploy.tune_nginx_conf(generous, 10_000))
    assert events["worker_connections"] == "90000"
    assert main["worker_rlimit_nofile"] == "200000"
    with pytest.raises(SystemExit, match="worker_connections"):
        dmpdeploy.tune_nginx_conf("worker_processes 1;\n", 10_000)


def test_the_push_processes_run_below_the_web_processes(tmp_path):
    """Viewers never slow the tables: a fan-out's burst yields the cores to gunicorn."""
    layout = _written(tmp_path)
    push = (layout.units / "dmpartners-push.service").read_text()
    web = (layout.units / "dmpartners-web.service").read_text()
    nice = re.search(r"^Nice=(\d+)$", push, re.MULTILINE)
    assert nice is not None and int(nice.group(1)) >= 10
    assert "Nice=" not in web
