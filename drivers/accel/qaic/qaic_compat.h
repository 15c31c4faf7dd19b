/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver is written against the newest kernel API it is built for
 * (Linux 7.2). Each shim here gives an older kernel (Debian's 6.12.118 is
 * the oldest built) the newer form, and names the release that changed it;
 * once the oldest kernel built has that release, the shim goes.
 *
 * It includes the kernel headers whose API it completes, so its place
 * among a file's includes does not matter.
 *
 * "KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE" reads "older than 6.13".
 * This is the one file allowed LINUX_VERSION_CODE: scripts/qaic check and
 * scripts/qaic-series accept checkpatch's warning about it here only.
 */

#ifndef _QAIC_COMPAT_H_
#define _QAIC_COMPAT_H_

#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/version.h>

#include <drm/gpu_scheduler.h>

/*
 * Linux 6.13 made symbol namespaces string literals: MODULE_IMPORT_NS("NS").
 * Before it the macro stringified its argument, which would record the
 * quotes in the module's import_ns.
 */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns) MODULE_INFO(import_ns, ns)
#endif

/*
 * Linux 6.13 added hrtimer_setup(), which sets the callback with the rest;
 * 6.15 removed hrtimer_init().
 */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*fn)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
}
#endif

/*
 * Linux 6.17 renamed the timedout_job() status DRM_GPU_SCHED_STAT_NOMINAL
 * to DRM_GPU_SCHED_STAT_RESET (and added DRM_GPU_SCHED_STAT_NO_HANG, which
 * we do not use: it would have the scheduler queue the job again itself).
 */
#if KERNEL_VERSION(6, 17, 0) > LINUX_VERSION_CODE
#define DRM_GPU_SCHED_STAT_RESET DRM_GPU_SCHED_STAT_NOMINAL
#endif

/*
 * Linux 7.x allocates an object by naming it, kzalloc_obj(*p, gfp) for
 * kzalloc(sizeof(*p), gfp), and its checkpatch asks for that form. The
 * macros are tested rather than a release: only the two used here.
 */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP) kzalloc(sizeof(P), GFP)
#endif
#ifndef kmalloc_obj
#define kmalloc_obj(P, GFP) kmalloc(sizeof(P), GFP)
#endif

/*
 * Linux 6.15's MHI core loads the SBL of a card in PBL over BHIe when the
 * controller gives a segment length (and no full-image download); older
 * cores load it over BHI whatever the controller says, which a card whose
 * PBL only takes BHIe (the AIC200) refuses. Not a shim: on an older kernel
 * probe refuses such a card (qaic_drv.c).
 */
#if KERNEL_VERSION(6, 15, 0) > LINUX_VERSION_CODE
#define QAIC_MHI_NO_BHIE_SBL
#endif

#endif /* _QAIC_COMPAT_H_ */
