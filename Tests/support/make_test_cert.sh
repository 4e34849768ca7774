#!/usr/bin/env bash
# Generate a throwaway self-signed TLS certificate for localhost / 127.0.0.1:
#   Tests/support/make_test_cert.sh OUTDIR   ->  OUTDIR/cert.pem, OUTDIR/key.pem
# Used by tests that need a TLS peer (e.g. smtp_sink.py --starttls); clients
# trust cert.pem directly as their only root. Valid for one day: always make a
# fresh one per run rather than committing one.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
outdir=$1
mkdir -p "$outdir"

# Both DNS and IP SANs, because clients connect to either name.
# openssl prints progress dots on stderr; show its output only if it fails.
if ! err=$(openssl req -x509 -newkey rsa:2048 -nodes -sha256 \
    -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
    -days 1 \
    -keyout "$outdir/key.pem" -out "$outdir/cert.pem" 2>&1); then
    echo "$err" >&2
    exit 1
fi
chmod 600 "$outdir/key.pem"
chmod 644 "$outdir/cert.pem"
