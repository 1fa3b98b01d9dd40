# kiln: one non-recursive Makefile for the tester, its tests, the images and
# the lab. `make` builds out/kiln; `make check` runs every test; `make lab`
# is the main job; `make V=1` shows the commands.

OUT := out
CFLAGS ?= -O2 -g
# snprintf truncation is how kiln bounds sysfs paths and names on purpose,
# so GCC's guesses about it (-Wformat-truncation) are not errors here.
override CFLAGS += -std=c11 -Wall -Wextra -Werror -Wmissing-prototypes \
	-Wno-format-truncation -D_GNU_SOURCE -Itools/kiln
KILN_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
# version.c alone is built with the version; its stamp changes only when the
# version does, so a new version rebuilds it and nothing says a stale one.
VERSION_STAMP := $(OUT)/version.txt
$(shell mkdir -p $(OUT); [ "$$(cat $(VERSION_STAMP) 2>/dev/null)" = '$(KILN_VERSION)' ] || \
	echo '$(KILN_VERSION)' >$(VERSION_STAMP))

ifneq ($(V),1)
Q := @
quiet = @printf '  %-8s %s\n' '$(1)' '$(2)';
endif

# How liburing reaches musl: musl-gcc searches only musl's headers, which
# have neither liburing.h nor linux/*.h, and adding /usr/include would pull
# in glibc's headers, which clash with musl's. So out/musl-include holds
# symlinks to exactly the kernel-UAPI and liburing headers we need, and we
# link Debian's liburing.a, which asks of the C library only calloc, free
# and __stack_chk_fail, all of which musl has.
MUSL_CC := musl-gcc
MUSL_INC := $(OUT)/musl-include
MUSL_LINKS := liburing.h liburing linux asm-generic
# liburing.a where pkg-config says it is (recursive: after make deps).
LIBURING_A = $(shell pkg-config --variable=libdir liburing)/liburing.a

# The sources are the folders' files (docs/design.md says what each folder
# holds and what it may include; make check-layers holds them to it).
KILN_SRCS := $(sort $(wildcard tools/kiln/*.c tools/kiln/*/*.c))

KILN_OBJS := $(KILN_SRCS:tools/kiln/%.c=$(OUT)/musl/%.o)
HOST_ALL := $(KILN_SRCS:tools/kiln/%.c=$(OUT)/host/%.o)
HOST_MAIN := $(filter %/main.o,$(HOST_ALL))
HOST_OBJS := $(filter-out $(HOST_MAIN),$(HOST_ALL))

# Each C unit test is tests/unit/NAME.c, built into out/tests/NAME; prove
# runs the .c file itself through tests/lib/runone.sh, so there are no shims.
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_TESTS := $(basename $(notdir $(UNIT_SRCS)))

UNIT_BINS := $(UNIT_TESTS:%=$(OUT)/tests/%)

# Small programs that drive one part of kiln from a shell test, built like
# the unit tests: tests/host/upload.t puts files through httpput,
# tests/host/metrics.t pushes to a Pushgateway through metricspush.
HOST_TOOLS := $(OUT)/tests/httpput $(OUT)/tests/metricspush

# The whole tester under ASan and UBSan, for host tests that feed it odd
# input (mangled sysfs trees) and want memory errors to fail loudly.
ASAN_KILN := $(OUT)/tests/kiln-asan

# The whole tester under ThreadSanitizer: tests/host/tsan.t runs the host
# burn tests with it, so a race between the workers and the main thread
# fails make check.
TSAN_KILN := $(OUT)/tests/kiln-tsan
TSAN_OBJS := $(KILN_SRCS:tools/kiln/%.c=$(OUT)/tsan/%.o)

# The lying disk of the host tests (tests/lib/lyingdisk.c): a FUSE file to
# put under a loop device, which drops, caches, reverts, fails or hangs.
LYINGDISK := $(OUT)/tests/lyingdisk
FUSE_FLAGS = $(shell pkg-config --cflags --libs fuse3)

# The host build for unit tests: the same sources under ASan and UBSan.
HOST_CC := cc
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

all: $(OUT)/kiln

# Everything that needs packages depends on this stamp; scripts/deps.sh
# installs what is missing (with sudo when not root) and is idempotent.
DEPS_STAMP := $(OUT)/.deps-$(shell cat scripts/deps.list | md5sum | cut -c1-8)
deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/deps.sh scripts/deps.list
	$(Q)mkdir -p $(OUT)
	$(Q)sh scripts/deps.sh
	$(Q)touch $@

$(MUSL_INC)/.stamp: | $(DEPS_STAMP)
	$(Q)mkdir -p $(MUSL_INC)
	$(Q)for h in $(MUSL_LINKS); do ln -sfn /usr/include/$$h $(MUSL_INC)/$$h; done
	$(Q)ln -sfn /usr/include/x86_64-linux-gnu/asm $(MUSL_INC)/asm
	$(Q)touch $@

$(OUT)/musl/%.o: tools/kiln/%.c $(MUSL_INC)/.stamp
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(MUSL_CC) $(CFLAGS) $(VERSION_DEF) -isystem $(MUSL_INC) -MMD -MP \
		-c -o $@ $<

VERSION_O := $(filter %/version.o,$(KILN_OBJS))
$(VERSION_O): VERSION_DEF = -DKILN_VERSION='"$(KILN_VERSION)"'
$(VERSION_O): $(VERSION_STAMP)

$(OUT)/kiln: $(KILN_OBJS)
	$(call quiet,LD,$@)
	$(Q)$(MUSL_CC) -static -o $@ $^ $(LIBURING_A)

$(OUT)/host/%.o: tools/kiln/%.c | $(DEPS_STAMP)
	$(call quiet,HOSTCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) $(SANITIZE) -DKILN_VERSION='"test"' \
		-MMD -MP -c -o $@ $<

$(OUT)/tests/%: tests/unit/%.c tests/lib/tap.h $(HOST_OBJS)
	$(call quiet,HOSTLD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) $(SANITIZE) -o $@ $< $(HOST_OBJS) \
		$(LIBURING_A) -lpthread -lm

$(HOST_TOOLS): $(OUT)/tests/%: tests/lib/%.c $(HOST_OBJS)
	$(call quiet,HOSTLD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) $(SANITIZE) -o $@ $< $(HOST_OBJS) \
		$(LIBURING_A) -lpthread -lm

$(ASAN_KILN): $(HOST_OBJS) $(HOST_MAIN)
	$(call quiet,HOSTLD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) $(SANITIZE) -o $@ $^ $(LIBURING_A) -lpthread -lm

$(OUT)/tsan/%.o: tools/kiln/%.c | $(DEPS_STAMP)
	$(call quiet,TSANCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) -O1 -fsanitize=thread -DKILN_VERSION='"tsan"' \
		-MMD -MP -c -o $@ $<

$(TSAN_KILN): $(TSAN_OBJS)
	$(call quiet,HOSTLD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) -fsanitize=thread -o $@ $^ $(LIBURING_A) \
		-lpthread -lm

$(LYINGDISK): tests/lib/lyingdisk.c | $(DEPS_STAMP)
	$(call quiet,HOSTLD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CFLAGS) $(SANITIZE) -o $@ $< $(FUSE_FLAGS) -lpthread

# What host test files run, from the "# needs:" line at the top of each
# (tests/host/needs.t holds each line to what its file uses): kiln is
# out/kiln, any other name out/tests/NAME (kiln-asan, kiln-tsan,
# lyingdisk, httpput, metricspush, or a unit test's binary). So one file
# builds only what it runs: `make test T=tests/host/init.t` builds no
# sanitized tester.
host_needs = $(foreach n,$(sort $(shell sed -n 's/^\# needs: //p' $(1))),\
	$(if $(filter kiln,$(n)),$(OUT)/kiln,$(OUT)/tests/$(n)))
# Every host file's: the tester, its ASan and TSan builds, the lying disk
# and the small drivers of single parts.
HOST_NEEDS := $(call host_needs,$(sort $(wildcard tests/host/*.t)))
# prove, each file under runone.sh's timeout, then the slowest files.
CHECK := sh tests/lib/check.sh

# tools/kiln/ held to its folders' rule (docs/design.md): no include
# that points up, every file in a folder and in the table.
check-layers:
	$(Q)sh scripts/check-layers.sh

# The e2e tests boot the ramboot and the boot media in QEMU: check
# builds them too. The slow QEMU boots go first, the slowest files first
# (media.t's nine boots take about half of the QEMU time of the rest), so
# the two files prove runs at a time (tests/lib/check.sh) end together on
# the quick ones.
E2E_FIRST := $(addprefix tests/e2e/,media.t labserver.t edges.t faults.t)
E2E_SRCS := $(E2E_FIRST) $(filter-out $(E2E_FIRST),$(sort $(wildcard tests/e2e/*.t)))
check: check-layers $(UNIT_BINS) $(HOST_NEEDS) image | $(DEPS_STAMP)
	$(CHECK) $(E2E_SRCS) tests/host/ $(UNIT_SRCS)

# One area at a time; none builds the image unless its tests boot it.
check-unit: check-layers $(UNIT_BINS) | $(DEPS_STAMP)
	$(CHECK) $(UNIT_SRCS)

check-host: $(HOST_NEEDS) | $(DEPS_STAMP)
	$(CHECK) tests/host/

check-e2e: $(OUT)/kiln image | $(DEPS_STAMP)
	$(CHECK) $(E2E_SRCS)

# One file, verbose: make test T=tests/host/guard.t [ARGS='-i --run=1-3'],
# or a unit test: make test T=tests/unit/guard.c [ARGS='guard_stop'].
# It builds what that file runs: a unit test its own binary, a host test
# what its "# needs:" line names (a folder: every host file's), an e2e
# test the image.
TEST_NEEDS = $(if $(findstring /unit/,$(T)),$(OUT)/tests/$(basename $(notdir $(T))),\
	$(if $(findstring /e2e/,$(T)),$(OUT)/kiln image,\
	$(if $(filter %.t,$(T)),$(call host_needs,$(T)),$(HOST_NEEDS))))
test: $(TEST_NEEDS) | $(DEPS_STAMP)
	@[ -n "$(T)" ] || { echo "make test: name the file: make test T=tests/host/guard.t" >&2; exit 2; }
	prove -v -e 'sh tests/lib/runone.sh' $(T) :: $(ARGS)

# The man pages' parts that kiln's tables make (scripts/manual.sh): run
# after changing a usage string, a key or the safety decision.
man: $(OUT)/kiln
	$(Q)sh scripts/manual.sh $(OUT)/kiln

# The libFuzzer target of kiln's JSON reader (tests/fuzz/jsonread.c says
# how to run it); not part of check.
FUZZ := $(OUT)/fuzz-jsonread
fuzz: $(FUZZ)
# jsonread.c writes a node back as JSON (json.c) too.
$(FUZZ): tests/fuzz/jsonread.c $(wildcard tools/kiln/base/jsonread*.c tools/kiln/base/jsonread*.h tools/kiln/base/json.[ch])
	$(call quiet,FUZZCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
		-Itools/kiln tests/fuzz/jsonread.c tools/kiln/base/jsonread*.c \
		tools/kiln/base/json.c -o $@

# The ramboot: Debian's kernel (fetched and unpacked, never installed)
# and kiln's initramfs; scripts/kernel.sh caches the .deb in cache/.
# LAB_CA=FILE: the lab's CA (PEM) built in, for https:// with no ca=.
export LAB_CA
ramboot: $(OUT)/kiln | $(DEPS_STAMP)
	$(Q)sh scripts/kernel.sh
	$(Q)sh scripts/initramfs.sh
	$(Q)cat $(OUT)/kernel/package $(OUT)/manifest.initramfs >$(OUT)/manifest.txt
	$(Q)sh scripts/sizes.sh $(OUT)/kernel/vmlinuz $(OUT)/initramfs.cpio.gz

# The boot media: the USB stick image, the PXE root and the ISO, from
# Debian's signed shim, GRUB and kernel and syslinux, unmodified.
# LAB_SETTINGS="upload=... after=poweroff": a lab's keys in every menu.
export LAB_SETTINGS
image: ramboot
	$(Q)sh scripts/image.sh
	$(Q)cat $(OUT)/manifest.image >>$(OUT)/manifest.txt

# The main job: the USB stick booted by the firmware in a QEMU lab of
# virtual disks (LAB_BOOT=uefi, secureboot, or direct for the kernel
# straight from QEMU).
lab: image
	sh scripts/lab.sh

# The same with a lab that fails: a healthy disk, one with read errors and
# one that drops every write, so a FAIL is seen on the console and in
# report.html (results in out/lab-fail/results/).
lab-fail: image
	sh scripts/lab.sh fail

# Without QEMU: a live burn-in of loop devices (root) or plain files.
lab-host: $(OUT)/kiln | $(DEPS_STAMP)
	sh scripts/lab-host.sh

# kiln against fio on the same devices, in one run, as ratios.
bench: $(OUT)/kiln | $(DEPS_STAMP)
	sh scripts/bench.sh

# Where a guarded first pass's CPU goes against a consented one, in
# instructions counted by valgrind (scripts/profile.sh): no root, and not
# part of check or bench.
profile: $(OUT)/kiln | $(DEPS_STAMP)
	sh scripts/profile.sh $(OUT)/kiln

clean:
	rm -rf $(OUT)/musl $(OUT)/host $(OUT)/tsan $(OUT)/tests $(OUT)/kiln \
		$(MUSL_INC)

.PHONY: all bench check check-e2e check-host check-layers check-unit clean deps fuzz image \
	lab lab-fail lab-host man profile ramboot test
.DELETE_ON_ERROR:
.SECONDARY:

-include $(KILN_OBJS:.o=.d) $(HOST_ALL:.o=.d) \
	$(TSAN_OBJS:.o=.d)
