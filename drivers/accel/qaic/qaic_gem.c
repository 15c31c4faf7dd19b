// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic buffer objects
 *
 * Buffers are GEM objects backed by shmem, created with
 * DRM_IOCTL_QAIC_CREATE_BO and mapped into userspace at the offset
 * DRM_IOCTL_QAIC_MMAP_BO returns. Creation allocates no page; the first
 * mmap() (the shmem helpers get every page then) or the first slicing
 * does. So creation only checks that the machine could ever back the size
 * asked for: a buffer larger than all of RAM fails with -ENOMEM instead of
 * succeeding and failing later.
 *
 * Handles are per file, as GEM makes them; an object lives until its last
 * handle is closed (DRM_IOCTL_GEM_CLOSE or closing the file) and its last
 * mapping is gone.
 *
 * The first slicing pins the pages and maps them for the card until the
 * object is freed. The mapping skips the CPU cache maintenance of map and
 * unmap: each execution does it instead (for the device when it is queued,
 * for the CPU when it completed), which is what a non-coherent platform
 * needs. It also lets the object's pages be mapped by an importer of its
 * dma-buf at the same time, which the DMA API allows only for mappings that
 * leave the CPU sync to their owner.
 */

#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/stddef.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_gem.h"
#include "qaic_prime.h"

static_assert(offsetof(struct qaic_bo, base) == 0);

/*
 * Undoes qaic_bo_map(), with the reservation lock held. An imported
 * object's table belongs to its attachment, which the helpers unmap when
 * the object is freed; at @unplug it is unmapped now, as the card goes.
 */
static void qaic_bo_unmap_locked(struct qaic_bo *bo, bool unplug)
{
	struct drm_gem_object *obj = &bo->base.base;

	dma_resv_assert_held(obj->resv);
	if (!bo->sgt)
		return;
	if (obj->import_attach) {
		if (!unplug)
			return;
		dma_buf_unmap_attachment(obj->import_attach, bo->sgt, DMA_BIDIRECTIONAL);
		bo->base.sgt = NULL;
	} else {
		dma_unmap_sgtable(obj->dev->dev, bo->sgt, DMA_BIDIRECTIONAL,
				  DMA_ATTR_SKIP_CPU_SYNC);
		sg_free_table(bo->sgt);
		kfree(bo->sgt);
		drm_gem_shmem_unpin_locked(&bo->base);
	}
	bo->sgt = NULL;
}

static void qaic_gem_free(struct drm_gem_object *obj)
{
	struct qaic_device *qdev = to_qaic_device(obj->dev);
	struct qaic_bo *bo = to_qaic_bo(obj);

	spin_lock(&qdev->mapped_lock);
	list_del_init(&bo->mapped_node);
	spin_unlock(&qdev->mapped_lock);

	qaic_bo_free_slicing(bo->slicing);
	dma_resv_lock(obj->resv, NULL);
	qaic_bo_unmap_locked(bo, false);
	dma_resv_unlock(obj->resv);
	drm_gem_shmem_free(&bo->base);
}

/**
 * qaic_bo_map() - Pin an object's pages and map them for the card, once.
 * @bo: The object; its reservation lock must be held.
 *
 * Return: Its table of device addresses, kept until the object is freed;
 * or an ERR_PTR().
 */
struct sg_table *qaic_bo_map(struct qaic_bo *bo)
{
	struct drm_gem_shmem_object *shmem = &bo->base;
	struct drm_gem_object *obj = &shmem->base;
	struct qaic_device *qdev = to_qaic_device(obj->dev);
	struct sg_table *sgt;
	int ret;

	dma_resv_assert_held(obj->resv);
	if (bo->sgt)
		return bo->sgt;
	if (obj->import_attach) {
		/* drm_gem_shmem_prime_import_sg_table() kept the import's table */
		sgt = shmem->sgt;
	} else {
		ret = drm_gem_shmem_pin_locked(shmem);
		if (ret)
			return ERR_PTR(ret);
		sgt = drm_gem_shmem_get_sg_table(shmem);
		if (IS_ERR(sgt)) {
			ret = PTR_ERR(sgt);
			goto unpin;
		}
		ret = dma_map_sgtable(obj->dev->dev, sgt, DMA_BIDIRECTIONAL,
				      DMA_ATTR_SKIP_CPU_SYNC);
		if (ret)
			goto free;
	}
	bo->sgt = sgt;
	spin_lock(&qdev->mapped_lock);
	list_add_tail(&bo->mapped_node, &qdev->mapped);
	spin_unlock(&qdev->mapped_lock);
	return sgt;

free:
	sg_free_table(sgt);
	kfree(sgt);
unpin:
	drm_gem_shmem_unpin_locked(shmem);
	return ERR_PTR(ret);
}

/**
 * qaic_gem_unmap_all() - Unmap every object from the card, which is going.
 * @qdev: The card, unplugged: no ioctl runs, no DBC is active.
 *
 * The objects live on for whoever holds them (handles, mappings,
 * dma-bufs); only their mapping for the card ends, before the device is
 * released. An object being freed meanwhile unmaps itself.
 */
void qaic_gem_unmap_all(struct qaic_device *qdev)
{
	struct drm_gem_object *obj;
	struct qaic_bo *bo;
	bool alive;

	spin_lock(&qdev->mapped_lock);
	while ((bo = list_first_entry_or_null(&qdev->mapped, struct qaic_bo, mapped_node))) {
		obj = &bo->base.base;
		list_del_init(&bo->mapped_node);
		alive = kref_get_unless_zero(&obj->refcount);
		spin_unlock(&qdev->mapped_lock);
		if (alive) {
			dma_resv_lock(obj->resv, NULL);
			qaic_bo_unmap_locked(bo, true);
			dma_resv_unlock(obj->resv);
			drm_gem_object_put(obj);
		}
		spin_lock(&qdev->mapped_lock);
	}
	spin_unlock(&qdev->mapped_lock);
}

/*
 * For fdinfo, under the file's table lock: a look at the pages without
 * their lock, which is as good as any answer once the lock is dropped.
 */
static enum drm_gem_object_status qaic_gem_status(struct drm_gem_object *obj)
{
	if (obj->import_attach || READ_ONCE(to_qaic_bo(obj)->base.pages))
		return DRM_GEM_OBJECT_RESIDENT;
	return 0;
}

static const struct drm_gem_object_funcs qaic_gem_funcs = {
	.free = qaic_gem_free,
	.status = qaic_gem_status,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.export = qaic_gem_prime_export,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * qaic_gem_create_object() - Allocate the object drm_gem_shmem_create() sets up.
 * @drm: The DRM device.
 * @size: Size of the object in bytes; unused, the shmem helpers record it.
 *
 * Return: The embedded GEM object, or an ERR_PTR().
 */
struct drm_gem_object *qaic_gem_create_object(struct drm_device *drm, size_t size)
{
	struct qaic_bo *bo;

	bo = kzalloc_obj(*bo, GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	bo->base.base.funcs = &qaic_gem_funcs;
	spin_lock_init(&bo->stats_lock);
	INIT_LIST_HEAD(&bo->mapped_node);

	return &bo->base.base;
}

/**
 * qaic_bo_free_slicing() - Free the slices of a buffer object.
 * @slicing: What qaic_attach_slice_bo_ioctl() built; may be NULL.
 */
void qaic_bo_free_slicing(struct qaic_bo_slicing *slicing)
{
	if (!slicing)
		return;
	kvfree(slicing->slices);
	kvfree(slicing->reqs);
	kfree(slicing);
}

/* The largest buffer the machine could ever back: all of its RAM. */
static u64 qaic_bo_max_size(void)
{
	return min_t(u64, (u64)totalram_pages() << PAGE_SHIFT,
		     round_down(SIZE_MAX, PAGE_SIZE));
}

int qaic_create_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_create_bo *args = data;
	struct drm_gem_shmem_object *shmem;
	u32 handle;
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->pad) {
		drm_dbg(drm, "create_bo: pad %#x is not 0\n", args->pad);
		ret = -EINVAL;
		goto out;
	}
	if (!args->size) {
		drm_dbg(drm, "create_bo: size 0\n");
		ret = -EINVAL;
		goto out;
	}
	/* The limit is page aligned: rounding up below cannot pass it or wrap */
	if (args->size > qaic_bo_max_size()) {
		drm_dbg(drm, "create_bo: size %llu is more than RAM (%llu)\n",
			args->size, qaic_bo_max_size());
		ret = -ENOMEM;
		goto out;
	}

	shmem = drm_gem_shmem_create(drm, PAGE_ALIGN(args->size));
	if (IS_ERR(shmem)) {
		ret = PTR_ERR(shmem);
		drm_dbg(drm, "create_bo: size %llu: %d\n", args->size, ret);
		goto out;
	}

	ret = drm_gem_handle_create(file, &shmem->base, &handle);
	/* The handle holds the object now; on failure this frees it */
	drm_gem_object_put(&shmem->base);
	if (ret) {
		drm_dbg(drm, "create_bo: no handle: %d\n", ret);
		goto out;
	}

	args->handle = handle;
out:
	drm_dev_exit(idx);
	return ret;
}

int qaic_mmap_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_mmap_bo *args = data;
	struct drm_gem_object *obj;
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->pad) {
		drm_dbg(drm, "mmap_bo: pad %#x is not 0\n", args->pad);
		ret = -EINVAL;
		goto out;
	}

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg(drm, "mmap_bo: no object with handle %u\n", args->handle);
		ret = -ENOENT;
		goto out;
	}

	ret = drm_gem_create_mmap_offset(obj);
	if (ret)
		drm_dbg(drm, "mmap_bo: handle %u: no mmap offset: %d\n", args->handle, ret);
	else
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);

	drm_gem_object_put(obj);
out:
	drm_dev_exit(idx);
	return ret;
}
