#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# What users read agrees with what the programs do: every option of every
# verb's --help is in stackctl(1) and in the bash completion (and the
# completion offers nothing --help lacks); stackd --help and stackd(8) name
# the same options; stackd.conf(5) names every key `stackd -n` prints; the
# man pages format without a warning; the completion completes under bash;
# `make install` puts pages and completion where man and bash look.  And
# the documents hold together: README.md fits in 300 lines and shows the
# dashboard's picture, every link in README.md and docs/*.md reaches a file
# (and a heading) that exists, and no document cites a file users do not
# have (../shared/, papers/*.txt, DESIGN.md).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MAN=$ROOT/docs/man
COMP=$ROOT/packaging/bash-completion/stackctl

lines=$(wc -l <"$ROOT/README.md")
[ "$lines" -le 300 ] || fail "README.md has $lines lines: at most 300, the rest goes to docs/"
grep -q '](docs/dashboard.png)' "$ROOT/README.md" || fail "README.md does not show docs/dashboard.png"
[ -s "$ROOT/docs/dashboard.png" ] || fail "docs/dashboard.png is missing (docs/design.md: how to take it)"
[ "$(wc -c <"$ROOT/docs/dashboard.png")" -le 307200 ] || fail "docs/dashboard.png is over 300 KB"
# anchors DOC: the headings' GitHub anchors and the explicit <a id>s
anchors() {
	sed -n 's/^#\{1,6\} //p' "$1" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
	grep -o '<a id="[^"]*"' "$1" | sed 's/<a id="//; s/"$//'
}
links=0
for doc in "$ROOT/README.md" "$ROOT"/docs/*.md; do
	dir=$(dirname "$doc")
	for link in $(grep -oE '\]\([^) ]+\)' "$doc" | sed 's/^](//; s/)$//'); do
		case $link in http://* | https://* | mailto:*) continue ;; esac
		file=${link%%#*}
		target=$doc
		[ -z "$file" ] || target=$dir/$file
		[ -e "$target" ] || fail "${doc#"$ROOT/"} links to $link: no such file"
		case $link in
		*#*)
			anchors "$target" | grep -qx "${link#*#}" ||
				fail "${doc#"$ROOT/"} links to $link: no such heading in ${target#"$ROOT/"}" ;;
		esac
		links=$((links + 1))
	done
done
[ "$links" -ge 10 ] || fail "only $links links found in README.md and docs/*.md"
cited=$(cd "$ROOT" && grep -rnE '\.\./shared|papers/[a-z-]+\.txt|DESIGN\.md' README.md docs web packaging \
	systemd schema)
[ -z "$cited" ] || fail "a document cites a file users do not have (docs/references.md lists the papers): $cited"
note "README.md: $lines lines with the screenshot; $links links in README.md and docs/*.md reach their targets"

command -v groff >/dev/null || skip "no groff"

# long options a --help text or a man page names
opts_of_help() { grep -oE -- '--[a-z][a-z-]*' | sort -u; }
opts_of_man() { grep -oE -- '\\-\\-[a-z][a-z\\-]*' | sed 's/\\//g' | sort -u; }

for verb in top show history status export analyze; do
	"$STACKCTL" "$verb" --help >"$TMP/helptext-$verb" || fail "stackctl $verb --help failed"
	opts_of_help <"$TMP/helptext-$verb" >"$TMP/help-$verb"
	# every verb has options of its own besides the common ones and --help:
	# an empty list would make the comparisons below vacuous
	[ "$(grep -cvx -e --help -e --url -e --db "$TMP/help-$verb")" -gt 0 ] ||
		fail "stackctl $verb --help names no option of its own"
	# the verb's section of the man page: from ".SS verb" to the next .SS/.SH
	awk -v v="$verb" '/^\.S[SH] /{on = ($2 == v)} on' "$MAN/stackctl.1" >"$TMP/man-$verb"
	[ -s "$TMP/man-$verb" ] || fail "stackctl.1 has no section .SS $verb"
	# and the verb's own section describes no option the verb lacks
	stale=$(opts_of_man <"$TMP/man-$verb" | comm -13 "$TMP/help-$verb" - | paste -sd " " -)
	[ -z "$stale" ] || fail "stackctl.1 describes $stale under $verb, which $verb --help lacks"
	sed -n '/^\.SH COMMON OPTIONS/,/^\.SH VERBS/p' "$MAN/stackctl.1" >>"$TMP/man-$verb"
	opts_of_man <"$TMP/man-$verb" >"$TMP/manopts-$verb"
	missing=$(comm -23 "$TMP/help-$verb" "$TMP/manopts-$verb" | tr '\n' ' ')
	[ -z "$missing" ] || fail "stackctl.1 does not describe $verb's $missing"
	bash -c ". '$COMP'; _stackctl_options $verb" | tr -s ' \t' '\n' | grep . | sort -u >"$TMP/comp-$verb"
	diff "$TMP/help-$verb" "$TMP/comp-$verb" >"$TMP/d" ||
		fail "completion and --help differ for $verb: $(cat "$TMP/d" | tr '\n' ' ')"
done
note "stackctl: every verb's options in --help, stackctl.1 and the completion"

"$STACKD" --help >"$TMP/stackd-helptext" || fail "stackd --help failed"
sed -n '/^Options/,/^Config file keys/p' "$TMP/stackd-helptext" | opts_of_help >"$TMP/stackd-help"
[ "$(wc -l <"$TMP/stackd-help")" -ge 5 ] ||
	fail "stackd --help has $(wc -l <"$TMP/stackd-help") options between Options and Config file keys"
opts_of_man <"$MAN/stackd.8" >"$TMP/stackd-man"
diff "$TMP/stackd-help" "$TMP/stackd-man" >"$TMP/d" || fail "stackd --help and stackd.8 differ: $(tr '\n' ' ' <"$TMP/d")"
# (-n checks the host too: the user to become and the dashboard's directory
# need not exist on a build host)
"$STACKD" --config /dev/null --user root --web-dir none -n 2>/dev/null | sed 's/ =.*//' | sort >"$TMP/keys"
[ "$(wc -l <"$TMP/keys")" -ge 10 ] || fail "stackd -n printed $(wc -l <"$TMP/keys") keys"
sed -n '/^\.SH KEYS/,/^\.SH EXAMPLE/{/^\.TP/{n;s/^\.B //p}}' "$MAN/stackd.conf.5" | sort >"$TMP/mankeys"
diff "$TMP/keys" "$TMP/mankeys" >"$TMP/d" || fail "stackd -n keys and stackd.conf.5 differ: $(tr '\n' ' ' <"$TMP/d")"
note "stackd: options in --help = stackd.8, $(wc -l <"$TMP/keys") config keys in stackd.conf.5"

for page in stackctl.1 stackd.8 stackd.conf.5; do
	LC_ALL=C.UTF-8 groff -man -ww -z "$MAN/$page" >"$TMP/groff" 2>&1
	[ ! -s "$TMP/groff" ] || fail "$page: $(cat "$TMP/groff")"
done

# the completion under bash, with bash-completion's own helpers loaded
complete_words() {  # complete_words "stackctl top --by " -> the candidates
	bash -c '
		[ -f /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
		. "$1"
		line=$2
		read -ra COMP_WORDS <<<"$line"
		[ "${line: -1}" = " " ] && COMP_WORDS+=("")
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		COMP_LINE=$line COMP_POINT=${#line}
		_stackctl
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$1" | sort | tr '\n' ' '
}
[ "$(complete_words "stackctl to")" = "top " ] || fail "verb: $(complete_words "stackctl to")"
[ "$(complete_words "stackctl top --by ")" = "comm process unit user " ] || fail "--by: $(complete_words "stackctl top --by ")"
[ "$(complete_words "stackctl export --fo")" = "--format " ] || fail "--fo: $(complete_words "stackctl export --fo")"
PATH="$BUILD:$PATH" complete_words "stackctl analyze --model " | grep -q "skl" || fail "--model values"
note "completion: verbs, options, values"

make -C "$ROOT" --no-print-directory install DESTDIR="$TMP/dest" PREFIX=/usr BUILD="$BUILD" >"$TMP/install.log" 2>&1 ||
	{ cat "$TMP/install.log"; fail "make install"; }
for f in usr/bin/stackctl usr/sbin/stackd usr/share/bash-completion/completions/stackctl \
	usr/share/stackd/web/index.html usr/lib/systemd/system/stackd.service usr/lib/sysusers.d/stackd.conf usr/lib/tmpfiles.d/stackd.conf; do
	[ -f "$TMP/dest/$f" ] || fail "make install did not install /$f"
done
conf=$TMP/dest/etc/stackd/stackd.conf
[ -f "$conf" ] || fail "make install did not install /etc/stackd/stackd.conf"
"$STACKD" -n --config "$conf" --user root --web-dir "$TMP/dest/usr/share/stackd/web" \
	>"$TMP/conf-effective" 2>"$TMP/conf-err" || fail "stackd -n rejects the shipped config: $(cat "$TMP/conf-err")"
[ "$(grep -c '^#[a-z_]* = ' "$conf")" -eq "$(wc -l <"$TMP/keys")" ] ||
	fail "the shipped config does not list every key"
echo "interval = 5s" >>"$conf"
make -C "$ROOT" --no-print-directory install DESTDIR="$TMP/dest" PREFIX=/usr BUILD="$BUILD" >/dev/null 2>&1 || fail "make install again"
grep -q "^interval = 5s$" "$conf" || fail "make install overwrote an edited config"
grep -q "^ExecStart=/usr/sbin/stackd --web-dir /usr/share/stackd/web$" "$TMP/dest/usr/lib/systemd/system/stackd.service" ||
	fail "installed unit does not start the installed stackd: $(grep ExecStart "$TMP/dest/usr/lib/systemd/system/stackd.service")"
# the pages are where man looks: man itself finds each in the installed tree
for page in 1:stackctl 8:stackd 5:stackd.conf; do
	sec=${page%%:*}
	name=${page#*:}
	want=$TMP/dest/usr/share/man/man$sec/$name.$sec
	if ! command -v man >/dev/null; then
		[ -f "$want" ] || fail "make install did not install ${want#"$TMP/dest"}"
		continue
	fi
	got=$(MANPATH=$TMP/dest/usr/share/man man -w "$sec" "$name" 2>&1)
	[ "$got" = "$want" ] || fail "man -w $sec $name in the installed tree: '$got', want $want"
done
command -v man >/dev/null || skip_check "man -w on the installed pages: man is not installed"
exit 0
