#!/bin/sh
# Generates the secrets a distributed Skald deployment needs, with openssl:
#   deploy/secrets/jwt-private.pem   Ed25519 private key (PKCS#8 PEM): only the auth service signs tokens
#   deploy/secrets/jwt-public.pem    its public key (SPKI PEM): every service verifies tokens with it
#   deploy/secrets/secrets-key       SECRETS_KEY: 32 random bytes, base64 (44 characters); encrypts TOTP
#                                    seeds and other secrets at rest
# and writes SECRETS_KEY into .env (compose reads it from there) if .env does not set it yet.
#
# Usage: sh deploy/gen-secrets.sh [--force]     (run from anywhere; paths are relative to the repository)
# Existing keys are kept unless --force: replacing the JWT keys logs every user out, and replacing
# SECRETS_KEY makes the secrets already stored unreadable.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/deploy/secrets"
env_file="$root/.env"
force=${1:-}

command -v openssl >/dev/null 2>&1 || { echo "openssl is required" >&2; exit 1; }

umask 077
mkdir -p "$dir"
chmod 700 "$dir"

if [ -f "$dir/jwt-private.pem" ] && [ "$force" != "--force" ]; then
  echo "keeping the existing JWT key pair in $dir (use --force to replace it)"
else
  openssl genpkey -algorithm ed25519 -out "$dir/jwt-private.pem"
  openssl pkey -in "$dir/jwt-private.pem" -pubout -out "$dir/jwt-public.pem"
  echo "wrote $dir/jwt-private.pem and jwt-public.pem"
fi

if [ -f "$dir/secrets-key" ] && [ "$force" != "--force" ]; then
  echo "keeping the existing SECRETS_KEY in $dir/secrets-key"
else
  openssl rand -base64 32 | tr -d '\n' > "$dir/secrets-key"
  echo "wrote $dir/secrets-key"
fi

# Compose bind-mounts secret files with their host owner and mode, and the containers run as uid 1000
# (the image's `node` user), so the files must be world-readable; the 0700 directory above keeps other
# users of this host out (a bind-mounted file is opened at its container path, so the host directory's
# mode does not apply inside the container).
chmod 644 "$dir/jwt-private.pem" "$dir/jwt-public.pem" "$dir/secrets-key"

secrets_key=$(cat "$dir/secrets-key")
if [ ! -f "$env_file" ]; then
  cp "$root/.env.example" "$env_file"
  chmod 600 "$env_file"
  echo "created $env_file from .env.example"
fi
if grep -q '^SECRETS_KEY=.' "$env_file"; then
  if ! grep -q "^SECRETS_KEY=$secrets_key\$" "$env_file"; then
    echo "note: $env_file already sets a different SECRETS_KEY; left unchanged" >&2
  fi
else
  # Drop an empty SECRETS_KEY= line, then append the generated value.
  grep -v '^SECRETS_KEY=$' "$env_file" > "$env_file.tmp" || true
  printf 'SECRETS_KEY=%s\n' "$secrets_key" >> "$env_file.tmp"
  mv "$env_file.tmp" "$env_file"
  chmod 600 "$env_file"
  echo "set SECRETS_KEY in $env_file"
fi
