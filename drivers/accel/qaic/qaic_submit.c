// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic explicit fences
 *
 * DRM_IOCTL_QAIC_SUBMIT, which Linux 6.12's uapi lacks, executes like
 * DRM_IOCTL_QAIC_EXECUTE_BO but takes DRM syncobjs: the execution waits for
 * the fences of its in-syncs (binary, or timeline points) and the fence of
 * its last entry is installed in its out-sync (replacing a binary syncobj's
 * fence, or adding a timeline point). So a chain of executions across DBCs,
 * or with other drivers, needs no round trip through userspace.
 *
 * Every in-sync is resolved before anything is queued: an unknown handle is
 * -ENOENT, a point with no fence yet is -EINVAL unless the in-sync asks to
 * wait for it to be submitted (then -ETIME if it never is). The out-sync
 * and the timeline chain node are looked up and allocated before the
 * execution too, so that nothing can fail once it is queued.
 */

#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_drv.h"
#include "qaic_job.h"
#include "qaic_queue.h"
#include "qaic_submit.h"

/* Most syncobjs one submission waits for. */
#define QAIC_SUBMIT_MAX_IN_SYNCS	64

#define QAIC_SUBMIT_FLAGS		QAIC_SUBMIT_PARTIAL

/* Resolves the in-syncs to fences; on failure none is left. */
static int qaic_submit_in_fences(struct drm_device *drm, struct drm_file *file,
				 const struct qaic_submit *args, struct dma_fence **fences)
{
	struct qaic_sync *syncs;
	u64 flags;
	u32 i, n = args->in_sync_count;
	int ret = 0;

	syncs = memdup_array_user(u64_to_user_ptr(args->in_syncs), n, sizeof(*syncs));
	if (IS_ERR(syncs))
		return PTR_ERR(syncs);

	for (i = 0; i < n; i++) {
		if (syncs[i].flags & ~QAIC_SYNC_WAIT_FOR_SUBMIT) {
			drm_dbg(drm, "submit: in-sync %u flags %#x unknown\n", i, syncs[i].flags);
			ret = -EINVAL;
			goto fail;
		}
	}
	for (i = 0; i < n; i++) {
		flags = syncs[i].flags & QAIC_SYNC_WAIT_FOR_SUBMIT ?
			DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT : 0;
		ret = drm_syncobj_find_fence(file, syncs[i].handle, syncs[i].point, flags,
					     &fences[i]);
		if (ret) {
			drm_dbg(drm, "submit: in-sync %u (handle %u point %llu): %d\n",
				i, syncs[i].handle, syncs[i].point, ret);
			goto fail;
		}
	}
	kfree(syncs);
	return 0;

fail:
	while (i--)
		dma_fence_put(fences[i]);
	kfree(syncs);
	return ret;
}

static int qaic_submit(struct drm_device *drm, struct qaic_submit *args, struct drm_file *file)
{
	struct dma_fence_chain *chain = NULL;
	struct qaic_execute_fences f = {};
	struct drm_syncobj *out = NULL;
	struct dma_fence **in = NULL;
	struct dma_fence *done = NULL;
	int ret;
	int idx;

	if (args->in_sync_count) {
		in = kcalloc(args->in_sync_count, sizeof(*in), QAIC_GFP_USER);
		if (!in)
			return -ENOMEM;
		ret = qaic_submit_in_fences(drm, file, args, in);
		if (ret)
			goto free;
	}
	f.in = in;
	f.nin = args->in_sync_count;
	f.out = &done;

	if (args->out_sync.handle) {
		out = drm_syncobj_find(file, args->out_sync.handle);
		if (!out) {
			drm_dbg(drm, "submit: no out-sync with handle %u\n", args->out_sync.handle);
			ret = -ENOENT;
			goto put_in;
		}
		if (args->out_sync.point) {
			chain = dma_fence_chain_alloc();
			if (!chain) {
				ret = -ENOMEM;
				goto put_in;
			}
		}
	}

	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto put_in;
	}
	/* Takes the in-fences over, whatever it returns. */
	ret = qaic_execute_run(drm, file, args->hdr.dbc_id, args->data, args->hdr.count,
			       args->flags & QAIC_SUBMIT_PARTIAL, &f);
	drm_dev_exit(idx);
	if (!ret && out) {
		if (chain) {
			drm_syncobj_add_point(out, chain, done, args->out_sync.point);
			chain = NULL;
		} else {
			drm_syncobj_replace_fence(out, done);
		}
	}
	dma_fence_put(done);
	goto free;

put_in:
	while (f.nin--)
		dma_fence_put(in[f.nin]);
free:
	dma_fence_chain_free(chain);
	if (out)
		drm_syncobj_put(out);
	kfree(in);
	return ret;
}

int qaic_submit_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_submit *args = data;
	int ret;

	if (args->flags & ~QAIC_SUBMIT_FLAGS) {
		drm_dbg(drm, "submit: flags %#x unknown\n", args->flags);
		return -EINVAL;
	}
	if (args->reserved) {
		drm_dbg(drm, "submit: reserved %#llx is not 0\n", args->reserved);
		return -EINVAL;
	}
	if (args->out_sync.flags) {
		drm_dbg(drm, "submit: out-sync flags %#x are not 0\n", args->out_sync.flags);
		return -EINVAL;
	}
	if (args->in_sync_count > QAIC_SUBMIT_MAX_IN_SYNCS) {
		drm_dbg(drm, "submit: %u in-syncs, at most %u\n", args->in_sync_count,
			QAIC_SUBMIT_MAX_IN_SYNCS);
		return -EINVAL;
	}
	ret = qaic_execute_check_count(drm, args->hdr.count);
	if (ret)
		return ret;

	/*
	 * Not inside drm_dev_enter() as a whole: waiting for an in-sync to be
	 * submitted may take seconds, and must not hold up an unplug.
	 */
	return qaic_submit(drm, args, file);
}
