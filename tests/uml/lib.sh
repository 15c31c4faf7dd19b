# SPDX-License-Identifier: GPL-2.0-only
# Shared settings for the bench scripts. Sourced, not run.

QAIC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Everything big lives outside the repo so reruns are incremental.
QAIC_CACHE=${QAIC_CACHE:-/var/cache/qaic}
# The kernel the bench runs, pinned: Debian's linux-source-6.12 at this version.
QAIC_KERNEL_VERSION=6.12.118
# Debian 12's binary kernel of that version (tests/qemu, tests/pc).
QAIC_DEB12_KERNEL=$QAIC_KERNEL_VERSION+deb12
# The bench can also run Debian sid's linux-source-7.2 (7.2.13, with SMP):
# QAIC_KERNEL, set by the scripts' --kernel 7.2 and exported so that the
# scripts they start use the same kernel, picks it. 6.12 is the default.
QAIC_KERNEL=${QAIC_KERNEL:-6.12}
QAIC_SID_SOURCE_VERSION=7.2.13
# The newest kernel the driver is built against (not run): Debian sid's
# linux-headers-$QAIC_SID_KERNEL-amd64, in a chroot (tests/sid/mkchroot).
QAIC_SID_KERNEL=7.2.13+deb14
QAIC_MESON_BUILD=${QAIC_MESON_BUILD:-$QAIC_CACHE/meson}

# Select the bench kernel (6.12 or 7.2), for this script and the ones it
# starts. Sets:
#  QAIC_KERNEL_VERSION  the version build-kernel checks the source against
#  QAIC_KSRC            where the patched source is unpacked
#  QAIC_KTARBALL        the tarball, from Debian's linux-source-<series>
#  QAIC_KPATCHES        the directory of the bench's patches for it
#  QAIC_KTAG            "" for 6.12, "7.2-" otherwise: a prefix to the
#                       build and staging directories of that kernel
qaic_kernel_select() { # series
	case "$1" in
	6.12)
		QAIC_KTARBALL=/usr/src/linux-source-6.12.tar.xz
		QAIC_KPATCHES=$QAIC_TOP/tests/uml/patches
		QAIC_KTAG=
		;;
	7.2)
		QAIC_KERNEL_VERSION=$QAIC_SID_SOURCE_VERSION
		# Fetched by build-kernel (qaic_fetch_sid_source), not installed.
		QAIC_KTARBALL=$QAIC_CACHE/sid-source/usr/src/linux-source-7.2.tar.xz
		QAIC_KPATCHES=$QAIC_TOP/tests/uml/patches-7.2
		QAIC_KTAG=7.2-
		;;
	*)
		qaic_die "unknown bench kernel '$1' (6.12 or 7.2)" ;;
	esac
	QAIC_KERNEL=$1
	QAIC_KSRC=$QAIC_CACHE/src/linux-$QAIC_KERNEL_VERSION
	export QAIC_KERNEL
}

qaic_kbuild_dir() { # flavour
	echo "$QAIC_CACHE/build/um-$QAIC_KTAG$1"
}

# PIDs of the bench kernels running now, anyone's: UML kernels booted with
# the bench's init (tests/uml/run).
qaic_bench_kernels() {
	pgrep -f 'tests/uml/init QAIC_RUN=' 2>/dev/null || true
}

# What makes a run red in a kernel log, whatever the command said: WARN,
# BUG, Oops, KASAN, UBSAN, lockdep, kmemleak, hung-task, RCU-stall,
# soft-lockup and panic reports (tests/uml/run, tests/pc/run).
QAIC_KERNEL_REPORTS='WARNING:|BUG:|Oops|KASAN|UBSAN|possible circular locking|possible recursive locking|'
QAIC_KERNEL_REPORTS+='inconsistent lock state|suspicious RCU|DEBUG_LOCKS_WARN|lockdep is turned off|hung task|'
QAIC_KERNEL_REPORTS+='blocked for more than|Kernel panic|general protection|unreferenced object|'
QAIC_KERNEL_REPORTS+='ODEBUG:|BUG kmalloc|Call Trace:|detected stalls|self-detected stall|soft lockup'

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
	# meson's and ninja's own output goes to a log unless QAIC_VERBOSE=1,
	# and its end to stderr when they fail.
	local log=$QAIC_MESON_BUILD.log
	[ "${QAIC_VERBOSE:-0}" = 1 ] && log=/dev/stderr
	if [ ! -f "$QAIC_MESON_BUILD/build.ninja" ]; then
		qaic_log "meson setup $QAIC_MESON_BUILD"
		meson setup "$QAIC_MESON_BUILD" "$QAIC_TOP" > "$log" 2>&1 ||
			{ [ "$log" = /dev/stderr ] || tail -n 30 "$log" >&2; return 1; }
	fi
	ninja -C "$QAIC_MESON_BUILD" >> "$log" 2>&1 ||
		{ [ "$log" = /dev/stderr ] || tail -n 30 "$log" >&2; return 1; }
}

qaic_kernel_select "$QAIC_KERNEL"
