#!/usr/bin/env bash
# Local servers for Ferry's interop tests and benchmarks.
#
#   scripts/servers.sh install  install what is missing (below), start nothing
#   scripts/servers.sh start    install what is missing, start everything, write WORK/servers.env
#   scripts/servers.sh stop     stop exactly what `start` started (pid files); never fails
#   scripts/servers.sh status   print what runs (exit 0 if all of it runs, 3 otherwise)
#   scripts/servers.sh restart  stop, then start
#
# Servers (all bound to loopback only):
#   httpbin      gunicorn + httpbin            FERRY_HTTPBIN_URL   (default port 18081)
#   nginx        static files + redirects      FERRY_NGINX_URL     (default port 18082)
#                same server on [::1]          FERRY_NGINX_URL_IPV6 (default port 18084, only if ::1 works)
#   upload sink  python, counts request bodies FERRY_UPLOAD_URL    (default port 18083)
#                same server on a Unix socket  FERRY_NGINX_SOCKET  (WORK/nginx.sock)
#   static root  the files nginx serves        FERRY_STATIC_ROOT
#   TLS          nginx, one TLS server per certificate case (valid, expired, not yet valid, wrong host,
#                self-signed, incomplete chain, client certificate required, TLS 1.2 only, TLS 1.3 only), with
#                certificates made on every start by scripts/make-test-certificates.py
#                                              FERRY_TLS_DIR (its ports.json maps each case to its port; default
#                                              ports 18091 to 18099)
#   proxy        pproxy: HTTP (CONNECT and absolute-form) and SOCKS5 on one port, no credentials
#                                              FERRY_PROXY_URL     (default port 18085, http://127.0.0.1:PORT)
#   websocket    the `websockets` library (scripts/websocket-peer.py): echo, fragments, close codes, pings,
#                subprotocols, permessage-deflate                  FERRY_WEBSOCKETS_URL (default port 18087, ws://…)
#   proxyauth    tinyproxy: HTTP with Basic credentials ferry:s3cret (pproxy compares header names with their
#                case, so it refuses a lower-case proxy-authorization, which AsyncHTTPClient sends)
#                                              FERRY_PROXY_AUTH_URL (default port 18086, http://ferry:s3cret@…)
#   autobahn     Autobahn|Testsuite's fuzzing server (scripts/autobahn-server.py: the WebSocket conformance suite's
#                server, on loopback and without its web server; Python 2.7), judging clients and writing its reports
#                to WORK/autobahn/reports
#                                              FERRY_AUTOBAHN_URL (default port 18088, ws://…), FERRY_AUTOBAHN_REPORTS
# A default port that is taken is replaced by a free ephemeral one; servers.env has the real ones.
#
# Environment:
#   FERRY_CI_WORK           work dir (default: REPO/.ci-work, git-ignored)
#   FERRY_BIG_FILES=1       also generate 256mib.bin (benchmarks); kept once made
#   FERRY_NGINX_WORKERS     nginx worker_processes (default 1)
#   FERRY_HTTPBIN_WORKERS / FERRY_HTTPBIN_THREADS   gunicorn workers/threads (default 4 / 8)
#   FERRY_HTTPBIN_PORT / FERRY_NGINX_PORT / FERRY_NGINX_PORT6 / FERRY_UPLOAD_PORT / FERRY_PROXY_PORT /
#   FERRY_PROXY_AUTH_PORT   preferred ports
#   FERRY_SERVER_START_TIMEOUT  seconds to wait for each server (default 20)
#   FERRY_PYTHON            the Python 3 the virtual environment is made from (default python3); if it already
#                           imports httpbin, gunicorn, pproxy and websockets, it runs the servers itself, without a virtual environment
#   FERRY_VENV              the virtual environment for httpbin, gunicorn, pproxy and websockets (default REPO/.venv-servers, git-ignored)
#   FERRY_PIP_SPECS         what pip installs into it (made again when the specs change)
#   FERRY_AUTOBAHN_HOME     where Autobahn|Testsuite and its dependencies are installed for Python 2.7 (pip --user with
#                           this PYTHONUSERBASE; default REPO/.venv-autobahn, git-ignored)
#
# What `install` (and `start`) installs when missing, as root or with passwordless sudo, on Debian or Ubuntu:
# nginx (nginx-light), curl, tinyproxy, python3 and python3-venv with apt-get; httpbin, gunicorn, pproxy and websockets with
# pip, into FERRY_VENV,
# never into the system Python (Debian 12's refuses: externally-managed-environment, PEP 668); for Autobahn, python2.7,
# python2.7-dev and gcc with apt-get (on Debian 12, which has no Python 2, from Debian 11 "bullseye": its source is
# added as /etc/apt/sources.list.d/ferry-python2.sources, pinned at priority 100 so that it never upgrades anything
# else), then pip 20.3.4 (fetched with the Python 3 environment's pip) and AUTOBAHN_SPECS into FERRY_AUTOBAHN_HOME.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${FERRY_CI_WORK:-$ROOT/.ci-work}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
LOGS="$WORK/logs"
WWW="$WORK/www"
STATE="$WORK/state"
ENV_FILE="$WORK/servers.env"
PY="${FERRY_PYTHON:-python3}"
VENV="${FERRY_VENV:-$ROOT/.venv-servers}"
# Versions verified together on Debian 12 / CPython 3.11 with Flask 3.1 + Werkzeug 3.1.
PIP_SPECS="${FERRY_PIP_SPECS:-httpbin==0.10.4 gunicorn==27.0.1 pproxy==2.7.9 cryptography==50.0.2 websockets==15.0.1}"
START_TIMEOUT="${FERRY_SERVER_START_TIMEOUT:-20}"
SERVICES=(nginx httpbin upload proxy proxyauth websocket autobahn)
# Autobahn|Testsuite 0.8.2 and the versions of its dependencies verified with it on Python 2.7.18.
AUTOBAHN_SPECS="autobahntestsuite==0.8.2 autobahn==0.10.9 Twisted==20.3.0 txaio==2.1.0 zope.interface==5.5.2 \
Automat==22.10.0 attrs==21.4.0 constantly==15.1.0 hyperlink==21.0.0 incremental==22.10.0 PyHamcrest==1.10.1 \
klein==20.6.0 Werkzeug==1.0.1 Tubes==0.2.1 jinja2==2.11.3 markupsafe==1.1.1 six==1.17.0 idna==2.10 \
pyopenssl==21.0.0 cryptography==3.3.2 cffi==1.15.1 pycparser==2.21 enum34==1.1.10 ipaddress==1.0.23 \
service-identity==21.1.0 pyasn1==0.5.1 pyasn1-modules==0.3.0 ujson==2.0.3 wsaccel==0.6.6 unittest2==1.1.0 \
linecache2==1.0.0 traceback2==1.4.0 typing==3.10.0.0"
AUTOBAHN_HOME="${FERRY_AUTOBAHN_HOME:-$ROOT/.venv-autobahn}"

PY_MODULES='import httpbin, gunicorn, pproxy, cryptography, websockets'

log() { echo "servers.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

# ---------------------------------------------------------------- installs

find_nginx() {
  NGINX_BIN="$(command -v nginx 2>/dev/null || true)"
  if [[ -z "$NGINX_BIN" && -x /usr/sbin/nginx ]]; then NGINX_BIN=/usr/sbin/nginx; fi
  [[ -n "$NGINX_BIN" ]]
}

as_root() { # as_root CMD...: run CMD as root (directly, or with passwordless sudo)
  if [[ $EUID -eq 0 ]]; then "$@"; return; fi
  command -v sudo >/dev/null 2>&1 || die "need root (or passwordless sudo) for: $*"
  sudo -n "$@"
}

apt_update() {
  # shellcheck disable=SC2024 # the log is the invoking user's file on purpose
  as_root apt-get update -qq >>"$LOGS/install.log" 2>&1 || log "apt-get update failed (see $LOGS/install.log); trying to install anyway"
}

apt_install() { # apt_install PKG... (quiet, non-interactive, never starts the distro's services)
  local sudo=()
  if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or passwordless sudo) to apt-get install $*"
    sudo=(sudo -n)
  fi
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [[ ! -e $policy ]]; then
    # keep Debian's postinst from starting a system-wide nginx on 0.0.0.0:80
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod +x "$policy"
    made_policy=1
  fi
  local rc=0
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@" >>"$LOGS/install.log" 2>&1 || rc=$?
  if [[ $made_policy == 1 ]]; then "${sudo[@]}" rm -f "$policy"; fi
  if [[ $rc != 0 ]]; then tail -n 30 "$LOGS/install.log" >&2; die "apt-get install $* failed"; fi
}

find_tinyproxy() {
  TINYPROXY_BIN="$(command -v tinyproxy 2>/dev/null || true)"
  if [[ -z "$TINYPROXY_BIN" && -x /usr/bin/tinyproxy ]]; then TINYPROXY_BIN=/usr/bin/tinyproxy; fi
  [[ -n "$TINYPROXY_BIN" ]]
}

ensure_installed() {
  local pkgs=() p
  APT_UPDATED=0
  if ! find_nginx; then
    apt_update_once
    for p in nginx-light nginx; do
      # (no `| grep -q` in this script: with pipefail, grep's early exit can fail a pipe via SIGPIPE)
      if [[ "$(apt-cache policy "$p" 2>/dev/null)" =~ Candidate:\ [0-9] ]]; then pkgs+=("$p"); break; fi
    done
    [[ ${#pkgs[@]} -gt 0 ]] || die "neither nginx-light nor nginx is installable (apt-cache policy)"
  fi
  if ! command -v curl >/dev/null 2>&1; then pkgs+=(curl); fi
  if ! find_tinyproxy; then pkgs+=(tinyproxy); fi
  if ! command -v "$PY" >/dev/null 2>&1; then
    [[ -z "${FERRY_PYTHON:-}" ]] || die "FERRY_PYTHON=$FERRY_PYTHON not found"
    pkgs+=(python3 python3-venv)
  fi
  if [[ ${#pkgs[@]} -gt 0 ]]; then
    apt_update_once
    apt_install "${pkgs[@]}"
    log "installed with apt-get: ${pkgs[*]}"
    find_nginx || die "nginx still not found after installing ${pkgs[*]}"
    find_tinyproxy || die "tinyproxy still not found after installing ${pkgs[*]}"
    command -v "$PY" >/dev/null 2>&1 || die "$PY still not found after installing ${pkgs[*]}"
  fi
  ensure_python_env
  # the real interpreter (not a pyenv shim), so the servers do not depend on PATH
  PY="$("$PY" -c 'import sys; print(sys.executable)')"
  ensure_autobahn
}

# find_python2: sets PY2 to a Python 2.7 that runs: FERRY_PYTHON2, python2.7 on PATH (not a pyenv shim of another
# version), or one of pyenv's; fails when there is none.
find_python2() {
  local candidate
  for candidate in ${FERRY_PYTHON2:-} python2.7 "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/2.7*/bin/python2.7; do
    [[ -n "$candidate" ]] || continue
    if PY2="$("$candidate" -c 'import sys; assert sys.version_info[:2] == (2, 7); print(sys.executable)' 2>/dev/null)" \
      && [[ -n "$PY2" ]]; then
      return 0
    fi
  done
  return 1
}

# ensure_autobahn: Python 2.7 (with its headers and gcc: pip builds Twisted's and wsaccel's extensions) and
# Autobahn|Testsuite with AUTOBAHN_SPECS in AUTOBAHN_HOME, made again when the specs change.
ensure_autobahn() {
  local specs_file="$AUTOBAHN_HOME/ferry-pip-specs" pkgs=() include release=()
  if find_python2 && [[ -x "$AUTOBAHN_HOME/bin/wstest" && "$(cat "$specs_file" 2>/dev/null)" == "$AUTOBAHN_SPECS" ]]; then
    return 0
  fi
  include=""
  if find_python2; then include="$("$PY2" -c 'import sysconfig; print(sysconfig.get_config_var("INCLUDEPY"))')"; fi
  if [[ -z "$include" || ! -f "$include/Python.h" ]]; then pkgs+=(python2.7 python2.7-dev); fi
  if ! command -v gcc >/dev/null 2>&1; then pkgs+=(gcc); fi
  if [[ ${#pkgs[@]} -gt 0 ]]; then
    command -v apt-get >/dev/null 2>&1 || die "Autobahn|Testsuite needs ${pkgs[*]}, and there is no apt-get"
    apt_update_once
    if [[ ! "$(apt-cache policy python2.7 2>/dev/null)" =~ Candidate:\ [0-9] ]]; then
      # Debian 12 has no Python 2; Debian 11 has 2.7.18, which runs on Debian 12's libraries.
      [[ "$(. /etc/os-release && echo "$ID")" == debian ]] || die "python2.7 is not installable here (apt-cache policy)"
      printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bullseye' 'Components: main' \
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
        | as_root tee /etc/apt/sources.list.d/ferry-python2.sources >/dev/null
      printf '%s\n' 'Package: *' 'Pin: release n=bullseye' 'Pin-Priority: 100' \
        | as_root tee /etc/apt/preferences.d/ferry-python2 >/dev/null
      log "added Debian 11 (bullseye) as an apt source pinned at priority 100, for python2.7"
      apt_update
      release=(-t bullseye)
    fi
    apt_install "${release[@]}" "${pkgs[@]}"
    log "installed with apt-get: ${pkgs[*]}"
    PY2=/usr/bin/python2.7
    [[ -x "$PY2" ]] || die "no /usr/bin/python2.7 after installing ${pkgs[*]}"
  fi
  log "installing Autobahn|Testsuite for Python 2.7 into $AUTOBAHN_HOME"
  rm -rf "$AUTOBAHN_HOME"
  mkdir -p "$AUTOBAHN_HOME/wheels"
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$PY" -m pip download -q --no-deps -d "$AUTOBAHN_HOME/wheels" pip==20.3.4 \
    setuptools==44.1.1 wheel==0.37.1 >>"$LOGS/install.log" 2>&1 || die "pip download of pip for Python 2.7 failed"
  # shellcheck disable=SC2086 # AUTOBAHN_SPECS is a list of requirement specifiers
  PYTHONUSERBASE="$AUTOBAHN_HOME" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_WARN_SCRIPT_LOCATION=1 \
    "$PY2" "$AUTOBAHN_HOME/wheels/pip-20.3.4-py2.py3-none-any.whl/pip" install -q --user \
    "$AUTOBAHN_HOME"/wheels/*.whl >>"$LOGS/install.log" 2>&1 \
    && PYTHONUSERBASE="$AUTOBAHN_HOME" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_WARN_SCRIPT_LOCATION=1 \
      "$PY2" -m pip install -q --user $AUTOBAHN_SPECS >>"$LOGS/install.log" 2>&1 \
    || { tail -n 30 "$LOGS/install.log" >&2; die "pip install of Autobahn|Testsuite for Python 2.7 failed"; }
  [[ -x "$AUTOBAHN_HOME/bin/wstest" ]] || die "no wstest in $AUTOBAHN_HOME/bin after pip install"
  printf '%s' "$AUTOBAHN_SPECS" >"$specs_file"
}

apt_update_once() {
  if [[ $APT_UPDATED == 0 ]]; then
    log "apt-get update (to install what is missing)"
    apt_update
    APT_UPDATED=1
  fi
}

# ensure_python_env: sets PY to an interpreter that imports httpbin, gunicorn, pproxy and websockets: PY as it is when it already does
# (a machine set up by hand, offline), else the virtual environment FERRY_VENV, made from PY (python3-venv installed
# first on Debian when PY lacks ensurepip) and filled with PIP_SPECS when it is missing, broken or of other specs.
ensure_python_env() {
  local specs_file="$VENV/ferry-pip-specs" vpy="$VENV/bin/python3"
  if "$PY" -c "$PY_MODULES" >/dev/null 2>&1; then return 0; fi
  if [[ -x "$vpy" && "$(cat "$specs_file" 2>/dev/null)" == "$PIP_SPECS" ]] \
    && "$vpy" -c "$PY_MODULES" >/dev/null 2>&1; then
    PY="$vpy"
    return 0
  fi
  # Debian's python3 has `venv` but not `ensurepip` (pip for the environment) without python3-venv.
  if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "$PY cannot make a virtual environment (no venv/ensurepip module)"
    apt_update_once
    apt_install python3-venv
    log "installed with apt-get: python3-venv"
    "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1 \
      || die "$PY still cannot make a virtual environment after installing python3-venv (is it Debian's python3?)"
  fi
  log "making the virtual environment $VENV, then pip install $PIP_SPECS"
  # --clear: an environment left by another interpreter or other specs is made again from scratch
  "$PY" -m venv --clear "$VENV" >>"$LOGS/install.log" 2>&1 \
    || { tail -n 30 "$LOGS/install.log" >&2; die "$PY -m venv $VENV failed"; }
  # shellcheck disable=SC2086 # PIP_SPECS is a list of requirement specifiers
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$vpy" -m pip install -q $PIP_SPECS >>"$LOGS/install.log" 2>&1 \
    || { tail -n 30 "$LOGS/install.log" >&2; die "pip install $PIP_SPECS (into $VENV) failed"; }
  "$vpy" -c "$PY_MODULES" >/dev/null 2>&1 \
    || die "httpbin/gunicorn/pproxy/websockets still not importable after pip install into $VENV"
  printf '%s' "$PIP_SPECS" >"$specs_file"
  PY="$vpy"
}

# ---------------------------------------------------------------- static files

gen_bin() { # gen_bin NAME BYTES: random content, made once (its exact size is the marker)
  local f="$WWW/$1" size="$2"
  if [[ -f "$f" && "$(stat -c %s "$f")" == "$size" ]]; then return 0; fi
  head -c "$size" /dev/urandom >"$f.tmp"
  mv -f "$f.tmp" "$f"
  GENERATED=1
}

gen_static() {
  mkdir -p "$WWW"
  GENERATED=0
  if [[ ! -f "$WWW/small.json" ]]; then
    printf '%s' '{"id":1,"name":"Ferry","ok":true,"price":1.5,"tags":["a","b"],"nested":{"n":null,"list":[1,2,3]}}' \
      >"$WWW/small.json"
    GENERATED=1
  fi
  if [[ ! -f "$WWW/array-10k.json" ]]; then
    "$PY" - "$WWW/array-10k.json" <<'EOF'
import json, sys
items, i = [], 0
while len(json.dumps(items, separators=(",", ":"))) < 10 * 1024:
    i += 1
    items.append({"id": i, "name": f"item {i}", "price": i * 1.5, "tags": ["a", "b"]})
with open(sys.argv[1] + ".tmp", "w") as f:
    json.dump(items, f, separators=(",", ":"))
import os; os.replace(sys.argv[1] + ".tmp", sys.argv[1])
EOF
    GENERATED=1
  fi
  if [[ ! -f "$WWW/empty.bin" ]]; then : >"$WWW/empty.bin"; GENERATED=1; fi
  gen_bin 1mib.bin $((1 << 20))
  gen_bin 16mib.bin $((16 << 20))
  if [[ "${FERRY_BIG_FILES:-0}" == 1 ]]; then gen_bin 256mib.bin $((256 << 20)); fi
  if [[ $GENERATED == 1 || ! -f "$WWW/SHA256SUMS" ]]; then
    (cd "$WWW" && sha256sum -- *.json *.bin >SHA256SUMS.tmp && mv -f SHA256SUMS.tmp SHA256SUMS)
  fi
}

# ---------------------------------------------------------------- helpers

pick_port() { # pick_port PREFERRED [4|6]: PREFERRED if it can be bound on loopback, else a free one
  "$PY" - "$1" "${2:-4}" <<'EOF'
import socket, sys
port, fam = int(sys.argv[1]), sys.argv[2]
af, host = (socket.AF_INET6, "::1") if fam == "6" else (socket.AF_INET, "127.0.0.1")
def try_bind(p):
    s = socket.socket(af, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: TIME_WAIT is no conflict
    try:
        s.bind((host, p)); return s.getsockname()[1]
    except OSError:
        return None
    finally:
        s.close()
print(try_bind(port) or try_bind(0))
EOF
}

ipv6_loopback_works() {
  "$PY" -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1", 0)); s.close()' >/dev/null 2>&1
}

pid_pattern() {
  case "$1" in
    nginx) echo 'nginx' ;;
    httpbin) echo 'gunicorn' ;;
    upload) echo 'upload_sink.py' ;;
    proxy) echo 'pproxy' ;;
    proxyauth) echo 'tinyproxy' ;;
    websocket) echo 'websocket-peer.py' ;;
    autobahn) echo 'autobahn-server.py' ;;
  esac
}

pidfile() {
  case "$1" in
    nginx) echo "$WORK/nginx.pid" ;;
    *) echo "$WORK/$1.pid" ;;
  esac
}

# live_pid NAME: prints the pid if its pid file names a live process that is really that server
live_pid() {
  local f pid
  f="$(pidfile "$1")"
  [[ -s "$f" ]] || return 1
  pid="$(tr -dc '0-9' <"$f")"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  [[ "$(tr '\0' ' ' <"/proc/$pid/cmdline")" == *"$(pid_pattern "$1")"* ]] || return 1
  pid_alive "$pid" || return 1
  echo "$pid"
}

# Zombies do not count as alive: here PID 1 reaps orphans only every second or so.
proc_state_pgrp() { # proc_state_pgrp PID: prints "STATE PGRP", fails if PID is gone
  local line
  { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
  line="${line##*) }" # fields after "(comm) ": state ppid pgrp ...
  local st pg
  read -r st _ pg _ <<<"$line"
  echo "$st $pg"
}

pid_alive() {
  local sp
  sp="$(proc_state_pgrp "$1")" || return 1
  [[ "${sp%% *}" != Z ]]
}

group_alive() { # group_alive PGID: is any live (non-zombie) process in that process group
  local f line st pg
  for f in /proc/[0-9]*/stat; do
    { read -r line <"$f"; } 2>/dev/null || continue
    line="${line##*) }"
    read -r st _ pg _ <<<"$line"
    if [[ "$pg" == "$1" && "$st" != Z ]]; then return 0; fi
  done
  return 1
}

stop_one() { # stop_one NAME: signal the server (its whole process group if it leads one), wait, escalate
  local name="$1" pid pgid sig i
  if ! pid="$(live_pid "$name")"; then
    rm -f "$(pidfile "$name")"
    return 0
  fi
  pgid="$(proc_state_pgrp "$pid" || true)"
  pgid="${pgid#* }"
  sig=TERM
  [[ "$name" == httpbin ]] && sig=QUIT # gunicorn: QUIT = quick shutdown, TERM = graceful
  if [[ "$pgid" == "$pid" ]]; then
    kill -s "$sig" -- "-$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do group_alive "$pid" || break; sleep 0.1; done
    if group_alive "$pid"; then
      log "$name (pgid $pid) ignored SIG$sig, sending SIGKILL"
      kill -s KILL -- "-$pid" 2>/dev/null || true
    fi
  else
    kill -s "$sig" "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do pid_alive "$pid" || break; sleep 0.1; done
    if pid_alive "$pid"; then kill -s KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$(pidfile "$name")"
  log "stopped $name (pid $pid)"
}

wait_http() { # wait_http NAME URL LOG [PID]: until URL answers, or fail loudly with the log
  local name="$1" url="$2" logf="$3" pid="${4:-}" deadline=$((SECONDS + START_TIMEOUT)) why
  why="did not answer $url within ${START_TIMEOUT}s"
  while ((SECONDS < deadline)); do
    if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then return 0; fi
    if [[ -n "$pid" ]] && ! pid_alive "$pid"; then why="exited before answering $url"; break; fi
    sleep 0.2
  done
  log "$name $why; last lines of $logf:"
  tail -n 40 "$logf" >&2 || true
  die "$name failed to start"
}

port_of() { cat "$STATE/$1.port" 2>/dev/null || true; }

# ---------------------------------------------------------------- servers

write_upload_sink() {
  cat >"$WORK/upload_sink.py" <<'EOF'
"""Upload sink for Ferry's tests: reads the whole request body (Content-Length or chunked),
counts it and answers {"bytes": N, ...}. Add ?sha256=1 to get the body's SHA-256 too."""
import hashlib, json, os, signal, socket, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

BUF = 1 << 20

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive, and "100 Continue" for Expect
    server_version = "FerryUploadSink/1"
    timeout = 300                   # idle / stalled connection

    def log_message(self, fmt, *args):
        pass

    def _read_exact(self, n, buf, digest):
        mv = memoryview(buf)
        while n:
            got = self.rfile.readinto(mv[: min(n, BUF)])
            if not got:
                raise ConnectionError("client closed the connection mid-body")
            if digest is not None:
                digest.update(mv[:got])
            n -= got

    def _drain(self, digest):
        buf = bytearray(BUF)
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            total = 0
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    raise ConnectionError("client closed the connection mid-body")
                size = int(line.split(b";", 1)[0].strip(), 16)
                if size == 0:
                    break
                self._read_exact(size, buf, digest)
                total += size
                if self.rfile.readline(3).strip():
                    raise ValueError("bad chunk terminator")
            while self.rfile.readline(65537).strip():   # trailers
                pass
            return total, True
        n = int(self.headers.get("Content-Length") or 0)
        if n < 0:
            raise ValueError("negative Content-Length")
        self._read_exact(n, buf, digest)
        return n, False

    def _handle(self):
        query = parse_qs(urlsplit(self.path).query)
        digest = hashlib.sha256() if "sha256" in query else None
        try:
            n, chunked = self._drain(digest)
        except (ConnectionError, socket.timeout, OSError):
            self.close_connection = True
            return
        except ValueError:
            self.send_error(400, "Malformed request body")
            self.close_connection = True
            return
        out = {"bytes": n, "method": self.command, "path": self.path, "chunked": chunked}
        if digest is not None:
            out["sha256"] = digest.hexdigest()
        body = json.dumps(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle

class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024

def main():
    port, pidfile = int(sys.argv[1]), sys.argv[2]
    srv = Server(("127.0.0.1", port), Handler)
    with open(pidfile + ".tmp", "w") as f:
        f.write(f"{os.getpid()}\n")
    os.replace(pidfile + ".tmp", pidfile)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"upload sink listening on http://127.0.0.1:{port}", flush=True)
    try:
        srv.serve_forever()
    finally:
        try:
            os.unlink(pidfile)
        except OSError:
            pass

if __name__ == "__main__":
    main()
EOF
}

start_upload() {
  local port pid
  port="$(pick_port "${FERRY_UPLOAD_PORT:-18083}")"
  write_upload_sink
  rm -f "$WORK/upload.pid"
  setsid "$PY" "$WORK/upload_sink.py" "$port" "$WORK/upload.pid" \
    </dev/null >"$LOGS/upload-sink.log" 2>&1 9>&- &
  echo "$port" >"$STATE/upload.port"
  wait_http "upload sink" "http://127.0.0.1:$port/" "$LOGS/upload-sink.log" $!
}

start_proxy() { # start_proxy NAME PORT: pproxy, HTTP and SOCKS5 without credentials, on 127.0.0.1:PORT
  local name="$1" port="$2"
  rm -f "$WORK/$name.pid"
  : >"$LOGS/$name.log"
  setsid "$PY" -m pproxy -l "http+socks5://127.0.0.1:$port" -v </dev/null >>"$LOGS/$name.log" 2>&1 9>&- &
  echo "$!" >"$WORK/$name.pid"
  echo "$port" >"$STATE/$name.port"
  wait_port "$name" "$port"
}

start_websocket() { # the websockets library's server, scripts/websocket-peer.py
  local port
  port="$(pick_port "${FERRY_WEBSOCKET_PORT:-18087}")"
  rm -f "$WORK/websocket.pid"
  : >"$LOGS/websocket.log"
  setsid "$PY" "$ROOT/scripts/websocket-peer.py" "$port" "$WORK/websocket.pid" \
    </dev/null >>"$LOGS/websocket.log" 2>&1 9>&- &
  echo "$port" >"$STATE/websocket.port"
  local i
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do [[ -s "$WORK/websocket.pid" ]] && break; sleep 0.1; done
  wait_port websocket "$port"
}

# The fuzzing server runs every case but those that send 1,000 compressed messages of 4 KiB or more (12.x.5 to
# 12.x.18 and 13.x.5 to 13.x.18): in a debug build of the client they take over ten minutes per client, and they run
# the same code as the smaller compressed ones (12.x.1 to 12.x.4, 13.x.1 to 13.x.4), which stay.
start_autobahn() {
  local port i excluded=""
  port="$(pick_port "${FERRY_AUTOBAHN_PORT:-18088}")"
  for ((i = 5; i <= 18; i++)); do excluded+="\"12.*.$i\", \"13.*.$i\", "; done
  mkdir -p "$WORK/autobahn"
  rm -rf "$WORK/autobahn/reports"
  printf '{"url": "ws://127.0.0.1:%s", "outdir": "%s", "cases": ["*"], "exclude-cases": [%s], "exclude-agent-cases": {}}\n' \
    "$port" "$WORK/autobahn/reports" "${excluded%, }" >"$WORK/autobahn/fuzzingserver.json"
  rm -f "$WORK/autobahn.pid"
  : >"$LOGS/autobahn.log"
  find_python2 || die "no Python 2.7 for Autobahn|Testsuite"
  PYTHONUSERBASE="$AUTOBAHN_HOME" setsid "$PY2" "$ROOT/scripts/autobahn-server.py" "$WORK/autobahn/fuzzingserver.json" \
    "$WORK/autobahn.pid" </dev/null >>"$LOGS/autobahn.log" 2>&1 9>&- &
  echo "$port" >"$STATE/autobahn.port"
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do [[ -s "$WORK/autobahn.pid" ]] && break; sleep 0.1; done
  wait_port autobahn "$port"
}

start_proxies() {
  start_proxy proxy "$(pick_port "${FERRY_PROXY_PORT:-18085}")"
  start_tinyproxy "$(pick_port "${FERRY_PROXY_AUTH_PORT:-18086}")"
}

start_tinyproxy() { # start_tinyproxy PORT: an HTTP proxy with Basic credentials, in the foreground of its own group
  local port="$1"
  find_tinyproxy || die "tinyproxy not found"
  printf '%s\n' "Port $port" "Listen 127.0.0.1" "Timeout 60" "MaxClients 200" "BasicAuth ferry s3cret" \
    "LogLevel Info" >"$WORK/tinyproxy.conf"
  rm -f "$WORK/proxyauth.pid"
  : >"$LOGS/proxyauth.log"
  setsid "$TINYPROXY_BIN" -d -c "$WORK/tinyproxy.conf" </dev/null >>"$LOGS/proxyauth.log" 2>&1 9>&- &
  echo "$!" >"$WORK/proxyauth.pid"
  echo "$port" >"$STATE/proxyauth.port"
  wait_port proxyauth "$port"
}

wait_port() { # wait_port NAME PORT: until something accepts connections on 127.0.0.1:PORT
  local name="$1" port="$2" i
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    if "$PY" -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$port" \
      2>/dev/null; then
      return 0
    fi
    live_pid "$name" >/dev/null || break
    sleep 0.1
  done
  tail -n 20 "$LOGS/$name.log" >&2
  die "$name did not listen on 127.0.0.1:$port"
}

start_httpbin() {
  local port worker=gthread args=()
  port="$(pick_port "${FERRY_HTTPBIN_PORT:-18081}")"
  "$PY" -c 'import gunicorn.workers.gthread' >/dev/null 2>&1 || worker=sync
  args=(--bind "127.0.0.1:$port"
        --workers "${FERRY_HTTPBIN_WORKERS:-4}"
        --worker-class "$worker"
        --pid "$WORK/httpbin.pid"
        --error-logfile "$LOGS/httpbin.log"
        --timeout 120 --graceful-timeout 1 --keep-alive 30)
  if [[ $worker == gthread ]]; then args+=(--threads "${FERRY_HTTPBIN_THREADS:-8}"); fi
  # gunicorn >= 26 opens a control socket in ~/.gunicorn by default: not wanted here
  if [[ "$("$PY" -m gunicorn --help 2>/dev/null)" == *--no-control-socket* ]]; then args+=(--no-control-socket); fi
  rm -f "$WORK/httpbin.pid"
  : >"$LOGS/httpbin.log"
  setsid "$PY" -m gunicorn --chdir "$WORK" "${args[@]}" httpbin:app \
    </dev/null >>"$LOGS/httpbin.log" 2>&1 9>&- &
  echo "$port" >"$STATE/httpbin.port"
  wait_http httpbin "http://127.0.0.1:$port/get" "$LOGS/httpbin.log" $!
}

write_nginx_conf() { # write_nginx_conf PORT PORT6_OR_EMPTY UPLOAD_PORT
  local port="$1" port6="$2" up="$3" v user_line="" rlimit_line="" temp_lines="" listen6=""
  v="$("$NGINX_BIN" -V 2>&1)"
  if [[ $EUID -eq 0 ]]; then user_line="user $(id -un) $(id -gn);"; fi
  local hard; hard="$(ulimit -Hn)"
  if [[ "$hard" == unlimited || "$hard" -ge 16384 ]]; then rlimit_line="worker_rlimit_nofile 16384;"; fi
  mkdir -p "$WORK/nginx-tmp"
  temp_lines="client_body_temp_path $WORK/nginx-tmp/client_body;
    proxy_temp_path $WORK/nginx-tmp/proxy;"
  for m in fastcgi uwsgi scgi; do
    if [[ "$v" != *"--without-http_${m}_module"* ]]; then
      temp_lines+="
    ${m}_temp_path $WORK/nginx-tmp/$m;"
    fi
  done
  if [[ -n "$port6" ]]; then listen6="listen [::1]:$port6;"; fi
  cat >"$WORK/nginx.conf" <<EOF
# generated by scripts/servers.sh — do not edit
$user_line
worker_processes ${FERRY_NGINX_WORKERS:-1};
$rlimit_line
daemon on;
master_process on;
pid $WORK/nginx.pid;
error_log $LOGS/nginx-error.log warn;

events {
    worker_connections 4096;
}

http {
    types {
        application/json          json;
        application/octet-stream  bin;
        text/plain                txt;
        text/html                 html;
    }
    default_type application/octet-stream;

    access_log $LOGS/nginx-access.log combined buffer=64k flush=1s;
    $temp_lines

    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65s;
    keepalive_requests 100000;
    server_tokens off;
    etag on;

    gzip on;
    gzip_min_length 1;
    gzip_types application/json;
    gzip_vary on;

    include $WORK/tls/nginx-tls.conf;

    upstream ferry_upload_sink {
        server 127.0.0.1:$up;
        keepalive 16;
    }

    server {
        listen 127.0.0.1:$port;
        listen unix:$WORK/nginx.sock;
        $listen6
        server_name localhost;
        root $WWW;

        client_max_body_size 1g;
        client_body_buffer_size 1m;

        location / {
            autoindex on;
        }

        location = /redirect {
            return 302 /small.json;
        }

        location = /redirect-relative {
            absolute_redirect off;
            return 302 /small.json;
        }

        location = /status/404 {
            return 404;
        }

        # small.json, fresh for an hour: what an HTTP cache may answer without asking again (cached-sequential)
        location = /cacheable.json {
            add_header Cache-Control "max-age=3600";
            try_files /small.json =404;
        }

        # small.json that no cache may keep: what a configured cache costs when it stores nothing (no-store-sequential)
        location = /no-store.json {
            add_header Cache-Control "no-store";
            try_files /small.json =404;
        }

        # request bodies stream through to the upload sink, which reads and counts them
        location ~ ^/(echo-upload|upload)(/.*)?\$ {
            client_max_body_size 1g;
            proxy_pass http://ferry_upload_sink;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_request_buffering off;
            proxy_buffering off;
            proxy_read_timeout 300s;
            proxy_send_timeout 300s;
        }
    }
}
EOF
}

start_nginx() {
  local port port6="" up eflag=()
  port="$(pick_port "${FERRY_NGINX_PORT:-18082}")"
  if ipv6_loopback_works; then port6="$(pick_port "${FERRY_NGINX_PORT6:-18084}" 6)"; fi
  up="$(port_of upload)"
  local tls_ports=() i
  for ((i = 0; i < 9; i++)); do tls_ports+=("$(pick_port "$((${FERRY_TLS_PORT:-18091} + i))")"); done
  "$PY" "$ROOT/scripts/make-test-certificates.py" "$WORK/tls" "${tls_ports[@]}" \
    || die "scripts/make-test-certificates.py failed"
  write_nginx_conf "$port" "$port6" "$up"
  # -e (nginx >= 1.19.5): keep even the pre-config error log out of /var/log
  if [[ "$("$NGINX_BIN" -h 2>&1)" == *" -e "* ]]; then eflag=(-e "$LOGS/nginx-error.log"); fi
  : >"$LOGS/nginx-error.log"
  "$NGINX_BIN" -t -q -p "$WORK/" -c "$WORK/nginx.conf" "${eflag[@]}" >>"$LOGS/nginx-error.log" 2>&1 \
    || { tail -n 20 "$LOGS/nginx-error.log" >&2; die "nginx config test failed ($WORK/nginx.conf)"; }
  rm -f "$WORK/nginx.pid"
  : >"$LOGS/nginx-access.log"
  "$NGINX_BIN" -p "$WORK/" -c "$WORK/nginx.conf" "${eflag[@]}" >>"$LOGS/nginx-error.log" 2>&1 9>&- \
    || { tail -n 20 "$LOGS/nginx-error.log" >&2; die "nginx failed to start"; }
  echo "$port" >"$STATE/nginx.port"
  if [[ -n "$port6" ]]; then echo "$port6" >"$STATE/nginx6.port"; else rm -f "$STATE/nginx6.port"; fi
  wait_http nginx "http://127.0.0.1:$port/small.json" "$LOGS/nginx-error.log"
  if [[ -n "$port6" ]]; then wait_http "nginx [::1]" "http://[::1]:$port6/small.json" "$LOGS/nginx-error.log"; fi
}

all_healthy() {
  local s p
  for s in "${SERVICES[@]}"; do live_pid "$s" >/dev/null || return 1; done
  p="$(port_of httpbin)"; curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$p/get" || return 1
  p="$(port_of nginx)"; curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$p/small.json" || return 1
  p="$(port_of upload)"; curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$p/" || return 1
  curl -fsS -o /dev/null --max-time 2 -x "http://127.0.0.1:$(port_of proxy)" \
    "http://127.0.0.1:$(port_of nginx)/small.json" || return 1
}

write_env() {
  local p6
  p6="$(port_of nginx6)"
  {
    echo "export FERRY_HTTPBIN_URL=http://127.0.0.1:$(port_of httpbin)"
    echo "export FERRY_NGINX_URL=http://127.0.0.1:$(port_of nginx)"
    if [[ -n "$p6" ]]; then echo "export FERRY_NGINX_URL_IPV6=http://[::1]:$p6"; fi
    echo "export FERRY_UPLOAD_URL=http://127.0.0.1:$(port_of upload)"
    echo "export FERRY_STATIC_ROOT=$WWW"
    echo "export FERRY_TLS_DIR=$WORK/tls"
    echo "export FERRY_NGINX_SOCKET=$WORK/nginx.sock"
    echo "export FERRY_PROXY_URL=http://127.0.0.1:$(port_of proxy)"
    echo "export FERRY_PROXY_AUTH_URL=http://ferry:s3cret@127.0.0.1:$(port_of proxyauth)"
    echo "export FERRY_WEBSOCKETS_URL=ws://127.0.0.1:$(port_of websocket)"
    echo "export FERRY_AUTOBAHN_URL=ws://127.0.0.1:$(port_of autobahn)"
    echo "export FERRY_AUTOBAHN_REPORTS=$WORK/autobahn/reports"
  } >"$ENV_FILE.tmp"
  mv -f "$ENV_FILE.tmp" "$ENV_FILE"
  cat "$ENV_FILE"
}

do_stop_all() {
  local s
  for s in "${SERVICES[@]}"; do stop_one "$s"; done
  rm -f "$ENV_FILE"
}

do_start() {
  mkdir -p "$LOGS" "$STATE"
  ensure_installed
  gen_static
  if all_healthy 2>/dev/null; then
    log "already running"
  else
    do_stop_all
    # whatever fails from here on, leave nothing half-started behind
    trap 'rc=$?; if [[ $rc != 0 ]]; then do_stop_all; fi' EXIT
    start_upload
    start_httpbin
    start_nginx
    start_proxies
    start_websocket
    start_autobahn
    trap - EXIT
    log "started nginx, httpbin, the upload sink, the proxies, the WebSocket peer and Autobahn (logs: $LOGS)"
  fi
  write_env
}

do_status() {
  local s pid all=0 port
  for s in "${SERVICES[@]}"; do
    port="$(port_of "$s")"
    if pid="$(live_pid "$s")"; then
      echo "$s: running (pid $pid) on 127.0.0.1:$port"
    else
      echo "$s: stopped"
      all=3
    fi
  done
  if [[ $all == 0 && -f "$ENV_FILE" ]]; then cat "$ENV_FILE"; fi
  return $all
}

# one start/stop at a time per work dir (the lock fd is closed for the servers: 9>&-)
exec 9>"$WORK/.lock"
flock -w 120 9 || die "another servers.sh holds $WORK/.lock"

case "${1:-}" in
  install) mkdir -p "$LOGS" "$STATE"; ensure_installed; log "installed; the servers run with $PY" ;;
  start) do_start ;;
  stop) mkdir -p "$LOGS" "$STATE"; do_stop_all ;;
  status) do_status ;;
  restart) mkdir -p "$LOGS" "$STATE"; do_stop_all; do_start ;;
  *) echo "usage: $0 install|start|stop|status|restart" >&2; exit 2 ;;
esac
