# SPDX-License-Identifier: GPL-2.0-only
# Shared settings for the bench scripts. Sourced, not run.

QAIC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Everything big lives outside the repo so reruns are incremental.
QAIC_CACHE=${QAIC_CACHE:-/var/cache/qaic}
# The kernel the bench runs, pinned: Debian's linux-source-6.12 at this version.
QAIC_KERNEL_VERSION=6.12.118
QAIC_KSRC=$QAIC_CACHE/src/linux-$QAIC_KERNEL_VERSION
# The newest kernel the driver is built against (not run): Debian sid's
# linux-headers-$QAIC_SID_KERNEL-amd64, in a chroot (tests/sid/mkchroot).
QAIC_SID_KERNEL=7.2.13+deb14
QAIC_MESON_BUILD=${QAIC_MESON_BUILD:-$QAIC_CACHE/meson}

qaic_kbuild_dir() { # flavour
	echo "$QAIC_CACHE/build/um-$1"
}

# PIDs of the bench kernels running now, anyone's: UML kernels booted with
# the bench's init (tests/uml/run).
qaic_bench_kernels() {
	pgrep -f 'tests/uml/init QAIC_RUN=' 2>/dev/null || true
}

qaic_log() {
	printf '[qaic %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

qaic_die() {
	qaic_log "error: $*"
	exit 1
}

# The userspace build (emulator, IGT tests, tools), outside the repo.
qaic_meson_build() {
	local info=$QAIC_MESON_BUILD/meson-info/meson-info.json src

	# The build directory remembers the source tree it was set up for: a
	# run from another clone (CI clones afresh) must not build that one.
	if [ -f "$info" ]; then
		src=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["directories"]["source"])' "$info" 2>/dev/null)
		if [ "$src" != "$QAIC_TOP" ]; then
			qaic_log "meson build $QAIC_MESON_BUILD was for ${src:-?}: set up again"
			rm -rf "$QAIC_MESON_BUILD"
		fi
	fi
	if [ ! -f "$QAIC_MESON_BUILD/build.ninja" ]; then
		qaic_log "meson setup $QAIC_MESON_BUILD"
		meson setup "$QAIC_MESON_BUILD" "$QAIC_TOP" >&2
	fi
	ninja -C "$QAIC_MESON_BUILD" >&2
}
