#!/bin/sh
# Install or upgrade DM i Partners on this Debian server: the one command.
#
#   sudo deploy/install.sh                 # install, or upgrade after `git pull`
#   deploy/install.sh --prefix DIR --no-systemd --no-packages
#                                          # every file under DIR, nothing started
#
# It runs again safely: what is already there is kept (the environment file and
# its secret key, the user, the venv when requirements.txt did not change).
# docs/operations.md, "Production install".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case " $* " in
  *" --no-packages "*|*" --prefix "*|*" --prefix="*) ;;
  *)
    # Debian's Python and its venv module: the rest of the installer is Python.
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import ensurepip" >/dev/null 2>&1; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv
    fi
    ;;
esac
exec python3 "$here/dmpdeploy.py" install "$@"
