# stackd - one plain Makefile.  `make` builds, `make run` starts the daemon,
# `make test` runs every test, `make bench` measures overhead.
# `make perf-tables LINUX_SRC=/path/to/linux-source` regenerates perf's CPU
# tables (lib/perfdb/perf_tables.c, committed; lib/perfdb/README.md): by
# hand, never part of the build.
#
# Objects go to build/rel (optimised, what `make run` and `make install`
# use) and build/asan (AddressSanitizer + UBSan, what the tests use).

PREFIX  ?= /usr/local
SYSCONFDIR ?= /etc
DESTDIR ?=
BUILD   ?= build
CC      ?= cc

PKGS := sqlite3 libmicrohttpd libsystemd jansson

# libpfm4 ships no pkg-config file on Debian: fall back to plain -lpfm.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
PFM_LIBS := $(shell pkg-config --libs libpfm 2>/dev/null || echo -lpfm)
MHD_LIBS := $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)
SYSTEMD_LIBS := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wcast-qual -Wformat=2 -Wundef -Wvla -Wwrite-strings
BASE_CFLAGS := -std=gnu11 -D_GNU_SOURCE -g $(WARN) -I. -I$(BUILD)/gen $(PKG_CFLAGS)
REL_CFLAGS  := $(BASE_CFLAGS) -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2
ASAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
ASAN_CFLAGS := $(BASE_CFLAGS) -O1 $(ASAN_FLAGS)
CFLAGS ?=
LDFLAGS ?=

# V=1 prints every compiler command.
Q := $(if $(V),,@)

# --- what each binary is made of -----------------------------------------
# Shared by stackd and stackctl: lib/ (leaf code, no logging, no globals).
LIB_SRCS := $(sort $(wildcard lib/*.c lib/model/*.c lib/perfdb/*.c))

# stackd: daemon/, a folder per pipeline stage (docs/design.md).
STACKD_SRCS := $(sort $(wildcard daemon/*.c daemon/*/*.c))
STACKD_GEN := $(BUILD)/gen/schema_sql.c
WEB_GEN := $(BUILD)/gen/web_files.c
WEB_FILES := $(sort $(wildcard web/*.html web/*.js web/*.css web/*.svg))
STACKD_LIBS := $(SQLITE_LIBS) $(PFM_LIBS) $(MHD_LIBS) $(SYSTEMD_LIBS) -lpthread -lm

# stackctl: cli/.
STACKCTL_SRCS := $(sort $(wildcard cli/*.c))
JANSSON_LIBS := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
STACKCTL_LIBS := $(SQLITE_LIBS) $(JANSSON_LIBS) $(PFM_LIBS) -lm

SCHEMA := $(sort $(wildcard schema/*.sql))

obj = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

REL_STACKD   := $(call obj,rel,$(STACKD_SRCS) $(LIB_SRCS)) $(BUILD)/rel/gen/schema_sql.o \
	$(BUILD)/rel/gen/web_files.o
REL_STACKCTL := $(call obj,rel,$(STACKCTL_SRCS) $(LIB_SRCS))
ASAN_STACKD  := $(call obj,asan,$(STACKD_SRCS) $(LIB_SRCS)) $(BUILD)/asan/gen/schema_sql.o \
	$(BUILD)/asan/gen/web_files.o
ASAN_STACKCTL:= $(call obj,asan,$(STACKCTL_SRCS) $(LIB_SRCS))

# Unit tests: tests/unit/test_X.c, linked with every daemon, CLI and lib
# object but the two mains (the test has its own main), so that code lives
# where its one binary is: daemon/ or cli/, and lib/ holds what both link.
UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
UNIT_OBJS  := $(filter-out $(BUILD)/asan/daemon/main.o,$(ASAN_STACKD)) \
	$(filter-out $(BUILD)/asan/cli/stackctl.o,$(call obj,asan,$(STACKCTL_SRCS)))
# The simulated PMU (tests/sim/simpmu.h): for unit tests only, never in stackd.
SIM_SRCS   := $(sort $(wildcard tests/sim/*.c))
SIM_OBJS   := $(call obj,asan,$(SIM_SRCS))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(BUILD)/helpers/%,$(HELPER_SRCS))

.PHONY: all run demo test unit system cppcheck bench deps deps-run clean install check-deps fuzz \
	fuzz-short \
	golden golden-update deb package-test dist rpm docs-health torture sim-tables sim-kernel-constraints style \
	perf-tables

# Build jobs for `make test` (and cppcheck): one per CPU.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# The query-string fuzzer (clang libFuzzer): briefly in `make test`, as long
# as you like with `make fuzz FUZZ_SECONDS=600`.
FUZZ_BIN := $(BUILD)/fuzz/fuzz_http_query
FUZZ_SECONDS ?= 300
# The metric expression fuzzer beside it (tests/fuzz/fuzz_metric_expr.c).
FUZZ_EXPR_BIN := $(BUILD)/fuzz/fuzz_metric_expr
METRIC_EXPR_SRCS := $(sort $(wildcard lib/perfdb/metric_expr_*.c))
.SUFFIXES:

all: $(BUILD)/stackd $(BUILD)/stackctl

$(BUILD)/stackd: $(REL_STACKD)
	@echo "  CC $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(STACKD_LIBS)
$(BUILD)/stackctl: $(REL_STACKCTL)
	@echo "  CC $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(STACKCTL_LIBS)
$(BUILD)/asan/stackd: $(ASAN_STACKD)
	@echo "  CC $@"
	$(Q)$(CC) $(ASAN_FLAGS) -o $@ $^ $(STACKD_LIBS)
$(BUILD)/asan/stackctl: $(ASAN_STACKCTL)
	@echo "  CC $@"
	$(Q)$(CC) $(ASAN_FLAGS) -o $@ $^ $(STACKCTL_LIBS)

$(BUILD)/rel/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) $(REL_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) $(ASAN_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/rel/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) $(REL_CFLAGS) $(CFLAGS) -c -o $@ $<
$(BUILD)/asan/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) $(ASAN_CFLAGS) $(CFLAGS) -c -o $@ $<

$(STACKD_GEN): daemon/store/gen-schema.sh $(SCHEMA)
	@mkdir -p $(dir $@)
	sh daemon/store/gen-schema.sh $@ $(SCHEMA)

$(WEB_GEN): daemon/serve/gen-web.sh $(WEB_FILES)
	@mkdir -p $(dir $@)
	sh daemon/serve/gen-web.sh $@ $(WEB_FILES)

# The generated file must exist before anything that includes its header.
$(call obj,rel,daemon/store/store.c) $(call obj,asan,daemon/store/store.c): $(STACKD_GEN)

$(BUILD)/tests/%: tests/unit/%.c $(UNIT_OBJS) $(SIM_OBJS) tests/unit/test.h tests/unit/test_db.h \
	tests/unit/test_model.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) $(ASAN_CFLAGS) -Itests/unit -Itests/sim -o $@ $< $(UNIT_OBJS) $(SIM_OBJS) $(STACKD_LIBS) \
		$(JANSSON_LIBS)

# Linux perf's event and metric tables as C facts, from a Linux source tree
# (lib/perfdb/README.md says which one and how to get it).
perf-tables:
	@test -n "$(LINUX_SRC)" || { echo "usage: make perf-tables LINUX_SRC=DIR" \
		"(the unpacked Linux source: lib/perfdb/README.md)"; exit 1; }
	python3 tools/perfdb/gen-perf-tables.py $(LINUX_SRC)

# The simulator's Intel counter masks, from Linux perf's pmu-events JSON:
# make sim-tables PMU_EVENTS=<linux>/tools/perf/pmu-events/arch/x86
sim-tables:
	python3 tests/sim/gen-intel-counters.py $(PMU_EVENTS) >tests/sim/intel_counters.c

# The kernel's counter constraint tables the simulator schedules by:
# make sim-kernel-constraints LINUX_SRC=<linux source tree>
sim-kernel-constraints:
	python3 tests/sim/gen-kernel-constraints.py $(LINUX_SRC) >tests/sim/kernel_constraints.c

# The golden tests' database writer: the daemon's store code, like a unit test.
FIXTURE_BIN := $(BUILD)/tests/mkfixture
FIXTURE_SRCS := tests/golden/mkfixture.c tests/golden/fixture_zen.c
$(FIXTURE_BIN): $(FIXTURE_SRCS) tests/golden/fixture_zen.h $(UNIT_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) $(ASAN_CFLAGS) -Itests/golden -o $@ $(FIXTURE_SRCS) $(UNIT_OBJS) $(STACKD_LIBS) \
		$(JANSSON_LIBS)
# The unit test of the fixture's profiles includes fixture_zen.c.
$(BUILD)/tests/test_fixture_zen: tests/golden/fixture_zen.c tests/golden/fixture_zen.h

# The peer lookup bench calls the daemon's two lookups directly.
PEERBENCH_SRCS := daemon/serve/peer.c daemon/serve/peer_diag.c daemon/serve/peer_procnet.c
$(BUILD)/helpers/peerbench: tests/helpers/peerbench.c $(PEERBENCH_SRCS) daemon/serve/peer.h \
		daemon/serve/peer_diag.h daemon/serve/peer_procnet.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I. -o $@ $< \
		$(PEERBENCH_SRCS)
# The shim that makes one perf_event_open() fail (test 392) is a shared object.
$(BUILD)/helpers/refuse_event: tests/helpers/refuse_event.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -shared -fPIC -o $@ $< -ldl
# The metric expression driver (tests/oracle/expr_crosscheck.py) links the evaluator.
$(BUILD)/helpers/metric_eval: tests/helpers/metric_eval.c $(METRIC_EXPR_SRCS) \
		lib/perfdb/metric_expr.h lib/perfdb/metric_expr_int.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I. -o $@ $< \
		$(METRIC_EXPR_SRCS) -lm
$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -o $@ $< -lpthread

$(FUZZ_BIN): tests/fuzz/fuzz_http_query.c lib/http_query.c lib/duration.c lib/http_query.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)clang -std=gnu11 -D_GNU_SOURCE -g -O1 -I. -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ tests/fuzz/fuzz_http_query.c lib/http_query.c \
		lib/duration.c

$(FUZZ_EXPR_BIN): tests/fuzz/fuzz_metric_expr.c $(METRIC_EXPR_SRCS) lib/perfdb/metric_expr.h \
		lib/perfdb/metric_expr_int.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)clang -std=gnu11 -D_GNU_SOURCE -g -O1 -I. -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ tests/fuzz/fuzz_metric_expr.c $(METRIC_EXPR_SRCS) -lm

# The two fuzzers run side by side (one core each), 20 s each.
fuzz-short: $(FUZZ_BIN) $(FUZZ_EXPR_BIN)
	@mkdir -p $(BUILD)/fuzz/corpus $(BUILD)/fuzz/corpus_metric_expr
	@$(FUZZ_EXPR_BIN) -max_total_time=20 -max_len=4096 -print_final_stats=1 \
		$(BUILD)/fuzz/corpus_metric_expr tests/fuzz/corpus_metric_expr \
		2>$(BUILD)/fuzz/short_expr.log & expr=$$!; \
	$(FUZZ_BIN) -max_total_time=20 -max_len=4096 -print_final_stats=1 $(BUILD)/fuzz/corpus \
		tests/fuzz/corpus 2>$(BUILD)/fuzz/short.log || { tail -30 $(BUILD)/fuzz/short.log; exit 1; }; \
	wait $$expr || { tail -30 $(BUILD)/fuzz/short_expr.log; exit 1; }
	@echo "PASS fuzz/http_query: $$(grep -o 'stat::number_of_executed_units: *[0-9]*' $(BUILD)/fuzz/short.log | grep -o '[0-9]*$$') inputs in 20 s, no crash"
	@echo "PASS fuzz/metric_expr: $$(grep -o 'stat::number_of_executed_units: *[0-9]*' $(BUILD)/fuzz/short_expr.log | grep -o '[0-9]*$$') inputs in 20 s, no crash"

fuzz: $(FUZZ_BIN) $(FUZZ_EXPR_BIN)
	@mkdir -p $(BUILD)/fuzz/corpus $(BUILD)/fuzz/corpus_metric_expr
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(BUILD)/fuzz/corpus tests/fuzz/corpus
	$(FUZZ_EXPR_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(BUILD)/fuzz/corpus_metric_expr \
		tests/fuzz/corpus_metric_expr

# --- the README's two commands ---------------------------------------------
# `make run` installs what building and running takes; `make test` and
# `make bench` the test toolchain too (Chromium, Prometheus, clang, ...).
deps-run:
	@sh packaging/install-deps.sh run
deps:
	@sh packaging/install-deps.sh test

# The dashboard over constructed data (stackd --demo): no root, no PMU.
demo: $(BUILD)/stackd
	$(BUILD)/stackd --demo

run: deps-run
	@$(MAKE) --no-print-directory all
	@echo
	@echo "stackd is starting in the foreground (Ctrl-C stops it)."
	@echo "Look at the data from another terminal with:"
	@echo "    $(CURDIR)/$(BUILD)/stackctl top          (live; q quits, see --help for keys)"
	@echo "    $(CURDIR)/$(BUILD)/stackctl show COMMAND (one process's stacks)"
	@echo "    $(CURDIR)/$(BUILD)/stackctl status"
	@echo "stackctl asks the daemon on /run/stackd/stackd.sock (man docs/man/stackctl.1)."
	@echo "The dashboard and the HTTP API: http://127.0.0.1:9466/ (loopback only;"
	@echo "from another host: ssh -L 9466:127.0.0.1:9466 THIS-HOST). Metrics: /metrics."
	@echo "The database is /var/lib/stackd/stackd.db."
	@echo
	@echo "(make run keeps root: --user root.  Installed, stackd runs as the user"
	@echo " stackd with CAP_PERFMON only - see docs/operations.md, Install on a host.)"
	$(BUILD)/stackd --web-dir $(CURDIR)/web --user root

test: deps tests/browser/node_modules/playwright-core
	@$(MAKE) --no-print-directory -j$(JOBS) all $(BUILD)/asan/stackd $(BUILD)/asan/stackctl \
		$(UNIT_BINS) $(HELPER_BINS) $(FIXTURE_BIN)
	@# the system tests that start no stackd, beside the unit tests
	@BUILD=$(CURDIR)/$(BUILD) SYSTEM_LANE=no-daemon sh tests/system/run \
		>$(BUILD)/tests/system-no-daemon.out 2>&1 & lane=$$!; \
	$(MAKE) --no-print-directory unit; unit=$$?; \
	wait $$lane; nodaemon=$$?; cat $(BUILD)/tests/system-no-daemon.out; \
	[ $$unit -eq 0 ] && [ $$nodaemon -eq 0 ]
	@$(MAKE) --no-print-directory fuzz-short
	@# the static checks on one core beside the first system tests, which
	@# mostly wait on the daemon's intervals
	@{ $(MAKE) --no-print-directory cppcheck JOBS=1 && \
	   $(MAKE) --no-print-directory style && \
	   $(MAKE) --no-print-directory golden; } >$(BUILD)/tests/checks.out 2>&1 & checks=$$!; \
	BUILD=$(CURDIR)/$(BUILD) SYSTEM_LANE=daemon sh tests/system/run; system=$$?; \
	wait $$checks; static=$$?; cat $(BUILD)/tests/checks.out; \
	[ $$system -eq 0 ] && [ $$static -eq 0 ]

# The browser test's one npm package, pinned by package-lock.json.
tests/browser/node_modules/playwright-core: tests/browser/package.json tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

unit: $(UNIT_BINS)
	@sh tests/unit/run $(UNIT_BINS)

system: all $(BUILD)/asan/stackd $(BUILD)/asan/stackctl $(HELPER_BINS) $(FIXTURE_BIN)
	@BUILD=$(CURDIR)/$(BUILD) sh tests/system/run

# SIGKILL x 50 and a fork storm (tests/torture/run): minutes of a busy
# host, so never part of `make test`; run it alone (root).
torture: all $(BUILD)/asan/stackd $(BUILD)/asan/stackctl $(HELPER_BINS)
	@BUILD=$(CURDIR)/$(BUILD) timeout 900 sh tests/torture/run

# stackctl's outputs on a constructed database, byte for byte; after a
# deliberate change, `make golden-update` and review the diff.
golden: $(BUILD)/asan/stackctl $(FIXTURE_BIN)
	@BUILD=$(CURDIR)/$(BUILD) sh tests/golden/run
golden-update: $(BUILD)/asan/stackctl $(FIXTURE_BIN)
	@UPDATE=1 BUILD=$(CURDIR)/$(BUILD) sh tests/golden/run

# The health fields' lists in docs/api.md and stackctl(1), from
# lib/health_fields.h (the unit test test_health checks they agree).
docs-health: $(BUILD)/tests/test_health
	$(BUILD)/tests/test_health --write-docs

# The house rules (tests/style/check says them): function and file sizes,
# daemon/'s stages, no loop between files, lib/ only what both binaries link.
style: all
	@python3 tests/style/check $(BUILD)

cppcheck:
	cppcheck -j $(JOBS) --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--inline-suppr --std=c11 -D_GNU_SOURCE -I. -I$(BUILD)/gen \
		--include=tests/cppcheck-macros.h --suppress=missingIncludeSystem \
		lib daemon cli tests/unit tests/helpers tests/golden tests/sim

bench: deps all $(HELPER_BINS)
	@BUILD=$(CURDIR)/$(BUILD) sh tests/bench/run

# The shipped config: every key commented out at its default, from the
# daemon's own key table (stackd --help).
$(BUILD)/stackd.conf: $(BUILD)/stackd packaging/gen-conf.sh
	sh packaging/gen-conf.sh $(BUILD)/stackd >$@

install: all $(BUILD)/stackd.conf
	install -D -m 0755 $(BUILD)/stackd $(DESTDIR)$(PREFIX)/sbin/stackd
	install -D -m 0755 $(BUILD)/stackctl $(DESTDIR)$(PREFIX)/bin/stackctl
	install -d $(DESTDIR)$(PREFIX)/share/stackd/web
	install -m 0644 web/index.html web/app.js web/style.css $(DESTDIR)$(PREFIX)/share/stackd/web/
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/stackd/prometheus \
		packaging/prometheus/stackd-rules.yml packaging/prometheus/stackd-alerts.yml
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/stackd/grafana \
		packaging/grafana/stackd-dashboard.json
	install -D -m 0644 docs/man/stackctl.1 $(DESTDIR)$(PREFIX)/share/man/man1/stackctl.1
	install -D -m 0644 docs/man/stackd.8 $(DESTDIR)$(PREFIX)/share/man/man8/stackd.8
	install -D -m 0644 docs/man/stackd.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/stackd.conf.5
	install -D -m 0644 packaging/bash-completion/stackctl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/stackctl
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system
	sed 's|^ExecStart=/usr/sbin/stackd$$|ExecStart=$(PREFIX)/sbin/stackd --web-dir $(PREFIX)/share/stackd/web|' \
		systemd/stackd.service >$(DESTDIR)$(PREFIX)/lib/systemd/system/stackd.service
	install -D -m 0644 systemd/stackd.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/stackd.conf
	install -D -m 0644 systemd/stackd.tmpfiles $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/stackd.conf
	@# an administrator's edited config is never overwritten
	[ -e $(DESTDIR)$(SYSCONFDIR)/stackd/stackd.conf ] || \
		install -D -m 0644 $(BUILD)/stackd.conf $(DESTDIR)$(SYSCONFDIR)/stackd/stackd.conf

# --- packages -------------------------------------------------------------------
VERSION := $(shell sed -n 's/.*STACKD_VERSION "\(.*\)"/\1/p' lib/version.h)
DEB_DIR := $(BUILD)/deb

# A .deb from the tracked files (packaging/debian becomes debian/), checked
# by lintian: any error fails.
deb:
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/stackd-$(VERSION)
	git ls-files -z | xargs -0 tar -cf - | tar -xf - -C $(DEB_DIR)/stackd-$(VERSION)
	cp -r packaging/debian $(DEB_DIR)/stackd-$(VERSION)/debian
	cd $(DEB_DIR)/stackd-$(VERSION) && dpkg-buildpackage -us -uc -b -jauto >../build.log 2>&1 || \
		{ tail -40 ../build.log; exit 1; }
	lintian --fail-on error --suppress-tags initial-upload-closes-no-bugs \
		$(DEB_DIR)/stackd_$(VERSION)-1_*.deb

# The source tarball of the tracked files: stackd-VERSION.tar.gz.
DIST := $(BUILD)/stackd-$(VERSION).tar.gz
dist:
	@mkdir -p $(BUILD)
	git ls-files | tar -czf $(DIST) --transform 's,^,stackd-$(VERSION)/,' -T -
	@echo "$(DIST)"

# An RPM from that tarball (on Debian: --nodeps, the build dependencies
# are Debian packages there).
RPM_DIR := $(CURDIR)/$(BUILD)/rpm
rpm: dist
	rm -rf $(RPM_DIR) && mkdir -p $(RPM_DIR)/SOURCES
	cp $(DIST) $(RPM_DIR)/SOURCES/
	rpmbuild -bb --nodeps --define "_topdir $(RPM_DIR)" packaging/rpm/stackd.spec \
		>$(RPM_DIR)/build.log 2>&1 || { tail -40 $(RPM_DIR)/build.log; exit 1; }
	@ls $(RPM_DIR)/RPMS/*/stackd-$(VERSION)-*.rpm

# Install the .deb on this machine, check it, purge it (root); check what
# the RPM holds.  .ci/run runs it after `make test`.
package-test: deb rpm
	sh tests/package/deb-test $(DEB_DIR)/stackd_$(VERSION)-1_*.deb
	sh tests/package/rpm-test $(RPM_DIR)/RPMS/*/stackd-$(VERSION)-*.rpm

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) \( -path $(BUILD)/deb -o -path $(BUILD)/rpm \) -prune -o -name '*.d' -type f -print 2>/dev/null)
