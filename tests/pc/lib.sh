# SPDX-License-Identifier: GPL-2.0-only
# Debian's own kernels and our DKMS-built module for QEMU guests
# (tests/qemu/loadtest, tests/pc/run). Sourced after tests/uml/lib.sh.
#
# Caches, under $QAIC_DKMS_CACHE (default /var/cache/qaic-dkms):
#   kernel/root, kernel-7.2/root   Debian's kernel packages, unpacked, depmod'ed
#   dkms/built/SUM, dkms/built-7.2-dkms/SUM
#                                  qaic.ko built from the package's sources,
#                                  SUM a hash of those sources (not of the
#                                  version, which changes with every commit)
# Logs of the builds go to $pc_logdir (set by the caller).

QAIC_DKMS_CACHE=${QAIC_DKMS_CACHE:-/var/cache/qaic-dkms}
pc_logdir=${pc_logdir:-$QAIC_DKMS_CACHE/logs}

# One builder of these caches at a time: held (fd 8) until the caller exits.
pc_lock() {
	mkdir -p "$QAIC_DKMS_CACHE"
	exec 8> "$QAIC_DKMS_CACHE/build.lock"
	flock 8
}

# Sets pc_kver, pc_vmlinuz and pc_kmods (the unpacked /lib/modules/$pc_kver)
# of Debian's kernel of a series, fetching it the first time: 6.12 is
# bookworm's linux-image (apt-get download on the host), 7.2 sid's
# linux-binary (the vmlinuz) and linux-modules, fetched in the sid chroot.
pc_kernel() { # 6.12|7.2
	local kdir root dl p

	mkdir -p "$pc_logdir"
	case $1 in
	6.12)
		pc_kver=$QAIC_DEB12_KERNEL-amd64
		kdir=$QAIC_DKMS_CACHE/kernel
		pc_vmlinuz=$kdir/root/boot/vmlinuz-$pc_kver
		pc_kmods=$kdir/root/lib/modules/$pc_kver
		[ -f "$pc_vmlinuz" ] && return 0
		qaic_log "apt-get download linux-image-$pc_kver"
		mkdir -p "$kdir"
		rm -rf "$kdir"/*.deb "$kdir/root" "$kdir/root.tmp"
		# apt drops root to _apt for the download when it can write here.
		chown _apt "$kdir" 2>/dev/null || true
		(cd "$kdir" && apt-get download -q "linux-image-$pc_kver") > "$pc_logdir/apt.log" 2>&1 ||
			{ cat "$pc_logdir/apt.log" >&2; qaic_die "apt-get download linux-image-$pc_kver failed"; }
		dl=$kdir
		;;
	7.2)
		pc_kver=$QAIC_SID_KERNEL-amd64
		kdir=$QAIC_DKMS_CACHE/kernel-7.2
		pc_vmlinuz=$kdir/root/usr/lib/modules/$pc_kver/vmlinuz
		pc_kmods=$kdir/root/lib/modules/$pc_kver
		[ -f "$pc_vmlinuz" ] && return 0
		root=$("$QAIC_TOP/tests/sid/mkchroot") || qaic_die "no sid chroot"
		qaic_log "apt-get download linux-binary-$pc_kver linux-modules-$pc_kver (sid chroot)"
		mkdir -p "$kdir"
		rm -rf "$kdir/root" "$kdir/root.tmp"
		dl=$root/tmp/qaic-kernel
		rm -rf "$dl"
		mkdir -p "$dl"
		chown _apt "$dl" 2>/dev/null || true
		{
			# mmdebstrap leaves no package lists in the chroot.
			chroot "$root" apt-cache show "linux-binary-$pc_kver" > /dev/null 2>&1 ||
				chroot "$root" apt-get update -q
			chroot "$root" sh -c "cd /tmp/qaic-kernel &&
				apt-get download -q linux-binary-$pc_kver linux-modules-$pc_kver"
		} > "$pc_logdir/apt-7.2.log" 2>&1 ||
			{ cat "$pc_logdir/apt-7.2.log" >&2; qaic_die "fetching Linux $pc_kver failed"; }
		;;
	*) qaic_die "unknown kernel '$1' (6.12 or 7.2)" ;;
	esac
	for p in "$dl"/*.deb; do
		dpkg-deb -x "$p" "$kdir/root.tmp"
	done
	# sid's packages put the modules in /usr/lib only; depmod -b wants lib/.
	[ -e "$kdir/root.tmp/lib" ] || ln -s usr/lib "$kdir/root.tmp/lib"
	# modules.dep is made by the package's postinst, not shipped.
	depmod -b "$kdir/root.tmp" "$pc_kver" 2>> "$pc_logdir/depmod.log"
	mv "$kdir/root.tmp" "$kdir/root"
	rm -rf "$dl"/*.deb
	[ -f "$pc_vmlinuz" ] || qaic_die "no $pc_vmlinuz in Debian's packages"
}

# The path of qaic.ko for a series, built from qaic-dkms (scripts/deb/build)
# the first time for these sources: 6.12 by `dkms build` in a DKMS tree of
# its own against the host's linux-headers (the host's DKMS state is not
# touched), 7.2 by sid's `dkms build` in the sid chroot, against
# linux-headers-$QAIC_SID_KERNEL-amd64 with sid's gcc.
pc_module() { # 6.12|7.2
	local series=$1 deb pkg sum built srcdir version kver cache=$QAIC_DKMS_CACHE/dkms
	local root ko

	mkdir -p "$pc_logdir" "$cache"
	deb=$("$QAIC_TOP/scripts/deb/build" -o "$QAIC_DKMS_CACHE/deb" 2> "$pc_logdir/deb.log") ||
		{ cat "$pc_logdir/deb.log" >&2; qaic_log "scripts/deb/build failed"; return 1; }
	pkg=$cache/pkg
	rm -rf "$pkg"
	dpkg-deb -x "$deb" "$pkg"
	srcdir=$(ls -d "$pkg/usr/src"/qaic-*)
	version=${srcdir##*/qaic-}
	# dkms.conf holds the version, nothing else does.
	sum=$(cd "$srcdir" && find . -type f ! -name dkms.conf -print0 | LC_ALL=C sort -z |
	      xargs -0 sha256sum | sha256sum | cut -c1-16)
	built=$cache/built/$sum
	[ "$series" = 6.12 ] || built=$cache/built-$series-dkms/$sum
	ko=$(ls "$built"/qaic.ko* 2>/dev/null | head -1) || true
	if [ -n "$ko" ]; then
		rm -rf "$pkg"
		echo "$ko"
		return 0
	fi
	case $series in
	6.12)
		kver=$QAIC_DEB12_KERNEL-amd64
		qaic_log "dkms build qaic/$version for $kver"
		rm -rf "$cache/src" "$cache/tree"
		mkdir -p "$cache/src" "$cache/tree"
		mv "$srcdir" "$cache/src/"
		# Signed with a key of our own, not the host's /var/lib/dkms/mok.key.
		if mok_signing_key=$cache/mok.key mok_certificate=$cache/mok.pub \
			dkms build -m qaic -v "$version" -k "$kver" \
			--dkmstree "$cache/tree" --sourcetree "$cache/src" \
			> "$pc_logdir/dkms.log" 2>&1; then
			ko=$(ls "$cache/tree/qaic/$version/$kver/x86_64/module"/qaic.ko* 2>/dev/null | head -1)
		fi
		if [ -z "$ko" ]; then
			cat "$pc_logdir/dkms.log" "$cache/tree/qaic/$version/build/make.log" >&2 2>/dev/null
			qaic_log "dkms build qaic/$version for $kver failed"
			return 1
		fi
		;;
	7.2)
		kver=$QAIC_SID_KERNEL-amd64
		root=$("$QAIC_TOP/tests/sid/mkchroot") || return 1
		qaic_log "dkms build qaic/$version for $kver in the sid chroot (sid's dkms, gcc and headers)"
		rm -rf "$root/tmp/qaic-dkms"
		mkdir -p "$root/tmp/qaic-dkms/src" "$root/tmp/qaic-dkms/tree"
		mv "$srcdir" "$root/tmp/qaic-dkms/src/"
		# objtool needs /proc: mounted in a mount namespace of its own,
		# gone with the build. The DKMS tree is the build's own, as for
		# 6.12, and signed with a key made there.
		if unshare -m sh -c 'mount -t proc proc "$1/proc" && exec chroot "$1" \
			/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			mok_signing_key=/tmp/qaic-dkms/mok.key mok_certificate=/tmp/qaic-dkms/mok.pub \
			dkms build -m qaic -v "$3" -k "$2" \
			--dkmstree /tmp/qaic-dkms/tree --sourcetree /tmp/qaic-dkms/src' sh \
			"$root" "$kver" "$version" > "$pc_logdir/dkms-7.2.log" 2>&1; then
			ko=$(ls "$root/tmp/qaic-dkms/tree/qaic/$version/$kver/x86_64/module"/qaic.ko* 2>/dev/null | head -1)
		fi
		if [ -z "$ko" ]; then
			cat "$pc_logdir/dkms-7.2.log" \
			    "$root/tmp/qaic-dkms/tree/qaic/$version/build/make.log" >&2 2>/dev/null
			qaic_log "dkms build qaic/$version for $kver failed"
			return 1
		fi
		;;
	esac
	rm -rf "${built%/*}"
	mkdir -p "$built"
	cp "$ko" "$built/"
	rm -rf "$pkg" "${root:-/nonexistent}/tmp/qaic-dkms"
	echo "$built/${ko##*/}"
}

# The path of upstream's qaic.ko for a series: drivers/accel/qaic of the
# same Debian source the UML bench builds (linux-source-6.12, sid's
# linux-source-7.2), built out of tree against the same headers as ours
# (the host's for 6.12, sid's in the chroot for 7.2). Debian's own kernels
# leave CONFIG_DRM_ACCEL_QAIC unset; this is what a user who builds it
# would load. Cached by the kernel version.
pc_upstream_module() { # 6.12|7.2
	local series=$1 src kver built root log=$pc_logdir/upstream-$1.log

	mkdir -p "$pc_logdir"
	qaic_kernel_select "$series"
	src=$QAIC_KSRC/drivers/accel/qaic
	[ -f "$src/Makefile" ] ||
		{ qaic_log "no $src: run tests/uml/build-kernel --kernel $series"; return 1; }
	built=$QAIC_DKMS_CACHE/upstream/$series
	if [ -f "$built/qaic.ko" ]; then
		echo "$built/qaic.ko"
		return 0
	fi
	rm -rf "$built"
	case $series in
	6.12)
		kver=$QAIC_DEB12_KERNEL-amd64
		mkdir -p "$built/src"
		cp -r "$src/." "$built/src/"
		make -C "/usr/src/linux-headers-$kver" M="$built/src" \
			CONFIG_DRM_ACCEL_QAIC=m -j"$(nproc)" modules > "$log" 2>&1
		;;
	7.2)
		kver=$QAIC_SID_KERNEL-amd64
		root=$("$QAIC_TOP/tests/sid/mkchroot") || return 1
		rm -rf "$root/tmp/qaic-upstream"
		mkdir -p "$root/tmp/qaic-upstream" "$built/src"
		cp -r "$src/." "$root/tmp/qaic-upstream/"
		# objtool needs /proc, as for our DKMS build above.
		unshare -m sh -c 'mount -t proc proc "$1/proc" && exec chroot "$1" \
			/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			make -C "/usr/src/linux-headers-$2" M=/tmp/qaic-upstream \
			CONFIG_DRM_ACCEL_QAIC=m -j"$3" modules' sh \
			"$root" "$kver" "$(nproc)" > "$log" 2>&1 &&
			cp "$root/tmp/qaic-upstream/qaic.ko" "$built/src/"
		rm -rf "$root/tmp/qaic-upstream"
		;;
	esac
	if [ ! -f "$built/src/qaic.ko" ]; then
		cat "$log" >&2
		qaic_log "building upstream's qaic for $kver failed"
		return 1
	fi
	mv "$built/src/qaic.ko" "$built/"
	rm -rf "$built/src"
	qaic_log "upstream's qaic ($(modinfo -F srcversion "$built/qaic.ko")) built for $kver"
	echo "$built/qaic.ko"
}

# Copy programs into an initramfs with the shared libraries they use
# (ldd), at the same paths.
pc_copy_with_libs() { # dir file...
	local ird=$1 f lib

	shift
	for f in "$@"; do
		mkdir -p "$ird${f%/*}"
		cp -L "$f" "$ird$f"
		for lib in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+'); do
			[ -e "$ird$lib" ] && continue
			mkdir -p "$ird${lib%/*}"
			cp -L "$lib" "$ird$lib"
		done
	done
}

# The start of an initramfs for Debian's kernel $pc_kver (pc_kernel): busybox,
# Debian's kmod with its libraries, the kernel's modules that qaic.ko needs
# (its depends, with theirs from the image's modules.dep), the MODULEs
# named and theirs, and qaic.ko in updates/dkms. The caller adds /init and
# anything else, then runs `depmod -b DIR $pc_kver`.
pc_initramfs_base() { # dir ko [MODULE...]
	local ird=$1 ko=$2 a deps d line m mdir=lib/modules/$pc_kver
	local -a mods paths

	rm -rf "$ird"
	mkdir -p "$ird"/{bin,sbin,proc,sys,dev,tmp,"$mdir"/updates/dkms}
	cp /bin/busybox "$ird/bin/"
	for a in $(/bin/busybox --list); do
		case $a in
		busybox|modprobe|modinfo|insmod|rmmod|lsmod|depmod) ;;
		*) ln -s busybox "$ird/bin/$a" ;;
		esac
	done
	pc_copy_with_libs "$ird" /usr/bin/kmod
	mv "$ird/usr/bin/kmod" "$ird/bin/kmod"
	for a in modprobe modinfo insmod rmmod lsmod depmod; do
		ln -s ../bin/kmod "$ird/sbin/$a"
	done
	cp "$ko" "$ird/$mdir/updates/dkms/"
	# sid's 7.2 packages ship none of these three.
	for a in modules.order modules.builtin modules.builtin.modinfo; do
		[ ! -f "$pc_kmods/$a" ] || cp "$pc_kmods/$a" "$ird/$mdir/"
	done
	deps=$(modinfo -F depends "$ko" | tr ',' ' ')
	mods=()
	for d in $deps "${@:3}"; do
		line=$(grep -E "/${d//[-_]/[-_]}\.ko(\.[a-z]+)?:" "$pc_kmods/modules.dep") ||
			qaic_die "module $d is not in Debian's $pc_kver"
		read -ra paths <<< "${line//:/}"
		mods+=("${paths[@]}")
	done
	printf '%s\n' "${mods[@]}" | sort -u | while read -r m; do
		mkdir -p "$ird/$mdir/${m%/*}"
		cp "$pc_kmods/$m" "$ird/$mdir/$m"
	done
}

# A newc cpio of a directory.
pc_cpio() { # dir out
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$2"
}
