#!/bin/sh
# gen-conf.sh STACKD: the shipped /etc/stackd/stackd.conf, every key
# commented out at its default, written from `stackd --help` so the file
# cannot drift from the daemon's own key table.
set -eu
cat <<'HEAD'
# /etc/stackd/stackd.conf - stackd's configuration (stackd.conf(5)).
# "key = value" lines; every key below is commented out at its default.
# Check an edited file with: stackd -n --config /etc/stackd/stackd.conf
# Apply it with: systemctl reload stackd (keys marked (restart) in
# stackd.conf(5) need: systemctl restart stackd).
HEAD
"$1" --help | sed -n '/^Config file keys/,/^$/p' | sed '1d;/^$/d' |
	sed -n 's/^  \([a-z_]*\) *\(.*\) (default: \(.*\))$/\n# \2\n#\1 = \3/p'
